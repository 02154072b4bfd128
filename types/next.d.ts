// Next's ambient types (CSS modules, images, process.env) for a type check that runs before any
// `next build` has written the gitignored next-env.d.ts — as on a fresh clone in CI.
/// <reference types="next" />
/// <reference types="next/image-types/global" />
