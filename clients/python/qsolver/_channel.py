"""Channel set-up shared by the clients: plaintext or TLS (a CA file or PEM bytes, optional client
certificate for mutual TLS, a server name override) and the bearer token sent as call metadata."""
import os

import grpc

_MESSAGE_LIMIT = 256 << 20


def _read(value):
    """PEM bytes from bytes, or from a file path."""
    if value is None or isinstance(value, bytes):
        return value
    with open(value, "rb") as f:
        return f.read()


def channel_credentials(tls, tls_ca, tls_cert, tls_key):
    """None for plaintext; TLS when tls is true or a CA / client certificate is given."""
    if not (tls or tls_ca or tls_cert):
        return None
    return grpc.ssl_channel_credentials(root_certificates=_read(tls_ca), private_key=_read(tls_key),
                                        certificate_chain=_read(tls_cert))


def merged_options(tls_server_name, options):
    merged = [("grpc.max_receive_message_length", _MESSAGE_LIMIT),
              ("grpc.max_send_message_length", _MESSAGE_LIMIT)]
    if tls_server_name:
        merged.append(("grpc.ssl_target_name_override", tls_server_name))
    return merged + list(options or [])


def auth_metadata(token, token_file):
    """The authorization header of every call: token, else token_file, else $QS_AUTH_TOKEN (as qsolve)."""
    if token is None and token_file:
        with open(token_file, encoding="utf-8") as f:
            token = f.read().strip()
    if token is None:
        token = os.environ.get("QS_AUTH_TOKEN")
    return (("authorization", f"Bearer {token}"),) if token else ()


class ChannelConfig:
    """What a client needs to reach the server; `make(aio)` opens a sync or an asyncio channel."""

    def __init__(self, target, *, tls=False, tls_ca=None, tls_cert=None, tls_key=None, tls_server_name=None,
                 token=None, token_file=None, timeout=None, channel_options=None):
        self.target = target
        self.credentials = channel_credentials(tls, tls_ca, tls_cert, tls_key)
        self.options = merged_options(tls_server_name, channel_options)
        self.metadata = auth_metadata(token, token_file)
        self.timeout = timeout

    def make(self, aio=False):
        module = grpc.aio if aio else grpc
        if self.credentials is None:
            return module.insecure_channel(self.target, options=self.options)
        return module.secure_channel(self.target, self.credentials, options=self.options)

    def call_timeout(self, timeout):
        return self.timeout if timeout is None else timeout
