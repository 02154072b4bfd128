// Types for the side-effect import of globals.css in pages/_app.tsx (TypeScript 6 checks side-effect imports).
export {};
