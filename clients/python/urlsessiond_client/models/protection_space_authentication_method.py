from enum import StrEnum


class ProtectionSpaceAuthenticationMethod(StrEnum):
    NSURLAUTHENTICATIONMETHODCLIENTCERTIFICATE = "NSURLAuthenticationMethodClientCertificate"
    NSURLAUTHENTICATIONMETHODDEFAULT = "NSURLAuthenticationMethodDefault"
    NSURLAUTHENTICATIONMETHODHTTPBASIC = "NSURLAuthenticationMethodHTTPBasic"
    NSURLAUTHENTICATIONMETHODHTTPDIGEST = "NSURLAuthenticationMethodHTTPDigest"
    NSURLAUTHENTICATIONMETHODNEGOTIATE = "NSURLAuthenticationMethodNegotiate"
    NSURLAUTHENTICATIONMETHODNTLM = "NSURLAuthenticationMethodNTLM"
    NSURLAUTHENTICATIONMETHODSERVERTRUST = "NSURLAuthenticationMethodServerTrust"

    def __str__(self) -> str:
        return str(self.value)
