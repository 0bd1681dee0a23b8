// What date-fns uses where no locale is given (vite.config.ts, dateFnsFallbackLocale): the app
// always gives one, so this only keeps date-fns's en-US locale out of the first page's scripts.
export { sv as defaultLocale } from 'date-fns/locale/sv';
