"""The exception of every failed call: the gRPC status name and message, as qsolve prints them."""
import grpc


class Error(Exception):
    """A failed call or bad input. str(error) is "CODE: message" with CODE the gRPC status name
    (INVALID_ARGUMENT, UNAVAILABLE, DEADLINE_EXCEEDED, CANCELLED ...); `code` is the grpc.StatusCode,
    `code_name` its name and `details` the message."""

    def __init__(self, code, details):
        if isinstance(code, str):
            code = grpc.StatusCode[code]
        self.code = code
        self.code_name = code.name
        self.details = details
        super().__init__(f"{self.code_name}: {details}")

    @classmethod
    def from_rpc_error(cls, rpc_error):
        code = rpc_error.code() if callable(getattr(rpc_error, "code", None)) else grpc.StatusCode.UNKNOWN
        details = rpc_error.details() if callable(getattr(rpc_error, "details", None)) else str(rpc_error)
        return cls(code or grpc.StatusCode.UNKNOWN, details or "")


class ParseError(Error, ValueError):
    """A puzzle or board text that does not parse (INVALID_ARGUMENT), raised before any call."""

    def __init__(self, details):
        super().__init__(grpc.StatusCode.INVALID_ARGUMENT, details)
