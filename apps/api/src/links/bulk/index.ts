// What the command line's import and export use (apps/cli/src/links): the one place another app
// may import from apps/api (see eslint.config.mjs).
export * from './link-csv';
export * from './links-bulk.module';
export * from './links-bulk.service';
export * from './links-export.service';
export { parseWhatsappUrl } from '../link-rules';
