// Names for the few statements prepared once per connection (REST's per-request settings).

const names = new Map<string, string>();

/**
 * The name a setup statement is prepared under, or undefined once 50 shapes have names (each
 * connection keeps what it prepared for its life, so the set must stay small). The text decides
 * the name, so a name always means the same statement on every connection.
 */
export function statementName(sql: string): string | undefined {
  let name = names.get(sql);
  if (!name && names.size < 50) {
    name = `postbox_setup_${names.size + 1}`;
    names.set(sql, name);
  }
  return name;
}
