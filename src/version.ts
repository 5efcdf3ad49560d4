/** The version, injected at build time from package.json (see scripts/build.mjs). */
declare const __DOCSCTL_VERSION__: string | undefined;
export const VERSION: string = typeof __DOCSCTL_VERSION__ === 'string' ? __DOCSCTL_VERSION__ : '0.0.0-dev';
