// The errors the client throws. An answer in the API's error envelope becomes an OpbaseError
// carrying the envelope's code, message and details; a request that got no answer at all
// becomes an OpbaseNetworkError, so callers can tell "the server said no" from "no server".

/** The error codes of the API (docs/api.md#error-codes); plugins may answer others. */
export const ErrorCode = Object.freeze({
  VALIDATION_ERROR: 'VALIDATION_ERROR',
  INVALID_OPTIONS: 'INVALID_OPTIONS',
  CONTENT_EMPTY: 'CONTENT_EMPTY',
  AUTHENTICATION_FAILED: 'AUTHENTICATION_FAILED',
  INVALID_CREDENTIALS: 'INVALID_CREDENTIALS',
  TOKEN_EXPIRED: 'TOKEN_EXPIRED',
  TOKEN_INVALID: 'TOKEN_INVALID',
  OTP_INVALID: 'OTP_INVALID',
  OTP_EXPIRED: 'OTP_EXPIRED',
  EMAIL_NOT_VERIFIED: 'EMAIL_NOT_VERIFIED',
  FORBIDDEN: 'FORBIDDEN',
  COLLECTION_NOT_FOUND: 'COLLECTION_NOT_FOUND',
  UNKNOWN_OPERATION: 'UNKNOWN_OPERATION',
  EMAIL_ALREADY_EXISTS: 'EMAIL_ALREADY_EXISTS',
  CONTENT_TOO_LONG: 'CONTENT_TOO_LONG',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  WEAK_PASSWORD: 'WEAK_PASSWORD',
  INVALID_LANGUAGE: 'INVALID_LANGUAGE',
  RATE_LIMIT_EXCEEDED: 'RATE_LIMIT_EXCEEDED',
  QUOTA_EXCEEDED: 'QUOTA_EXCEEDED',
  PROCESSING_FAILED: 'PROCESSING_FAILED',
  INTERNAL_ERROR: 'INTERNAL_ERROR',
  NETWORK_ERROR: 'NETWORK_ERROR',
});

export class OpbaseError extends Error {
  constructor({ code, message, details, status, requestId, retryAfter, op }) {
    super(message || code);
    this.name = 'OpbaseError';
    this.code = code;
    this.details = details ?? {};
    this.status = status;
    this.requestId = requestId ?? null;
    this.retryAfter = retryAfter ?? null;
    this.op = op ?? null;
  }
}

export class OpbaseNetworkError extends OpbaseError {
  constructor({ message, cause, op }) {
    super({ code: ErrorCode.NETWORK_ERROR, message, status: 0, op });
    this.name = 'OpbaseNetworkError';
    if (cause !== undefined) this.cause = cause;
  }
}
