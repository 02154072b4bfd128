// Password hashing (bcrypt, as GoTrue) and the minimum-length rule from [auth] minimum_password_length.
import bcrypt from 'bcryptjs';
import { errors } from './errors.js';

// GoTrue uses bcrypt.DefaultCost (10).
const COST = 10;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

export async function checkPassword(password: string, hash: string | null): Promise<boolean> {
  if (!hash) return false;
  return bcrypt.compare(password, hash);
}

/** Throws 422 weak_password like GoTrue's checkPasswordStrength (length rule only). */
export function assertStrongPassword(password: string, minLength: number): void {
  // GoTrue counts characters (runes), not bytes.
  if ([...password].length < minLength) throw errors.weakPassword(minLength);
}
