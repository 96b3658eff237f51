'use strict';
// Every failure of libtca is thrown as a TcaError: `status` is the tca_status code of tca.h,
// `code` its name ("TCA_ERR_JSON_SHAPE"), `message` the library's (tca_last_error), which names
// the function and the place. Each status has a subclass; JSONError and RequestError group some.

const CODES = [
  'TCA_OK',
  'TCA_ERR_INVALID_ARGUMENT',
  'TCA_ERR_INVALID_HANDLE',
  'TCA_ERR_UNKNOWN_FEATURE',
  'TCA_ERR_JSON_SYNTAX',
  'TCA_ERR_JSON_SHAPE',
  'TCA_ERR_UNENCODABLE',
  'TCA_ERR_UNKNOWN_REQUEST',
  'TCA_ERR_REQUEST_FINISHED',
  'TCA_ERR_ALREADY_ANSWERED',
  'TCA_ERR_NOT_A_STREAM',
  'TCA_ERR_REAL_CLOCK',
  'TCA_ERR_NOT_FOUND',
  'TCA_ERR_SYSTEM',
  'TCA_ERR_NO_MEMORY',
  'TCA_ERR_CALLBACK_UNWOUND',
  'TCA_ERR_VERSION_GONE',
];

class TcaError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
    this.code = CODES[status] || `TCA_ERR_${status}`;
  }

  get name() {
    return this.constructor.name;
  }
}

class InvalidArgumentError extends TcaError {}
class InvalidHandleError extends TcaError {}
class UnknownFeatureError extends TcaError {}
class JSONError extends TcaError {}
class JSONSyntaxError extends JSONError {}
class JSONShapeError extends JSONError {}
class UnencodableError extends JSONError {}
class RequestError extends TcaError {}
class UnknownRequestError extends RequestError {}
class RequestFinishedError extends RequestError {}
class AlreadyAnsweredError extends RequestError {}
class NotAStreamError extends RequestError {}
class RealClockError extends TcaError {}
class NotFoundError extends TcaError {}
class SystemCallError extends TcaError {}
class NoMemoryError extends TcaError {}
class CallbackUnwoundError extends TcaError {}
class VersionGoneError extends TcaError {}

const CLASSES = [
  TcaError,
  InvalidArgumentError,
  InvalidHandleError,
  UnknownFeatureError,
  JSONSyntaxError,
  JSONShapeError,
  UnencodableError,
  UnknownRequestError,
  RequestFinishedError,
  AlreadyAnsweredError,
  NotAStreamError,
  RealClockError,
  NotFoundError,
  SystemCallError,
  NoMemoryError,
  CallbackUnwoundError,
  VersionGoneError,
];

/** The error of a status and a message (called by the addon); a newer status: a TcaError. */
function makeError(status, message) {
  const Class = (status > 0 && CLASSES[status]) || TcaError;
  const error = new Class(status, message);
  Error.captureStackTrace(error, makeError);
  return error;
}

module.exports = {
  makeError,
  TcaError,
  InvalidArgumentError,
  InvalidHandleError,
  UnknownFeatureError,
  JSONError,
  JSONSyntaxError,
  JSONShapeError,
  UnencodableError,
  RequestError,
  UnknownRequestError,
  RequestFinishedError,
  AlreadyAnsweredError,
  NotAStreamError,
  RealClockError,
  NotFoundError,
  SystemCallError,
  NoMemoryError,
  CallbackUnwoundError,
  VersionGoneError,
};
