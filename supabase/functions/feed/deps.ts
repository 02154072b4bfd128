// The feed library of the site's build (package.json pins the same version).
export { Feed } from 'npm:feed@6.0.0';
