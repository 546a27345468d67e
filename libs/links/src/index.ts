// The rules of a link without HTTP: input checks, DTOs, the response mapper, bulk create and
// export. The API's links context and the command line's import and export both use them.
export * from './alias';
export * from './biolink-contrast';
export * from './bulk/batch-loader';
export * from './bulk/batched-lookups';
export * from './bulk/bulk-body';
export * from './bulk/link-csv';
export * from './bulk/links-bulk.module';
export * from './bulk/links-bulk.service';
export * from './bulk/links-export.service';
export * from './dto/create-link.dto';
export * from './dto/imported-link.dto';
export * from './dto/update-link.dto';
export * from './host-identity';
export * from './link-checks.service';
export * from './link-input.service';
export * from './link-password';
export * from './link-rules';
export * from './link-schedule';
export * from './link.mapper';
export * from './links.list';
export * from './site-upload';
export * from './destination-checks';
