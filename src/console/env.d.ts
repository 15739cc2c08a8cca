// The console's stylesheet is imported for its side effect; Vite bundles it.
declare module '*.css';
