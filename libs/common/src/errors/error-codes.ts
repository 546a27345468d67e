/**
 * The one table of error codes. Every failure the API reports carries one of these codes, and the
 * code alone decides the HTTP status.
 */
export const ERROR_STATUS = {
  validation_failed: 400,
  invalid_list_parameter: 400,
  malformed_body: 400,
  malformed_request: 400,
  already_exists: 400,
  invalid_reference: 400,
  alias_taken: 400,
  alias_reserved: 400,
  domain_verification_failed: 400,
  domain_not_verified: 400,
  domain_host_in_use: 400,
  channel_unavailable: 400,
  archive_rejected: 400,
  invalid_signature: 400,
  invalid_event: 400,
  too_many_blocks: 400,
  unauthorized: 401,
  forbidden: 403,
  plan_limit_reached: 403,
  not_found: 404,
  route_not_found: 404,
  project_not_found: 404,
  link_not_found: 404,
  domain_not_found: 404,
  qr_code_not_found: 404,
  splash_page_not_found: 404,
  user_not_found: 404,
  api_key_not_found: 404,
  signature_not_found: 404,
  notification_handler_not_found: 404,
  delivery_not_found: 404,
  push_subscriber_not_found: 404,
  biolink_block_not_found: 404,
  datum_not_found: 404,
  plan_not_found: 404,
  payment_not_found: 404,
  team_not_found: 404,
  team_member_not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  bulk_in_progress: 429,
  request_header_fields_too_large: 431,
  internal_error: 500,
  database_unavailable: 503,
  server_busy: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** One entry of the `errors` array of every error body. */
export interface ErrorEntry {
  status: number;
  title: string;
  field?: string;
  code: ErrorCode;
}

export interface ErrorBody {
  errors: ErrorEntry[];
}
