/** The version and build date, injected at build time (see scripts/build.mjs). */
declare const __DOCSCTL_VERSION__: string | undefined;
declare const __DOCSCTL_BUILD__: string | undefined;
export const VERSION: string = typeof __DOCSCTL_VERSION__ === 'string' ? __DOCSCTL_VERSION__ : '0.0.0-dev';
/**
 * When the code was made (ISO 8601): the date of the commit it was built from, so two
 * builds of one commit are the same (SOURCE_DATE_EPOCH wins). Running from the sources
 * (tests), there is no build: `development`.
 */
export const BUILD: string = typeof __DOCSCTL_BUILD__ === 'string' ? __DOCSCTL_BUILD__ : 'development';
