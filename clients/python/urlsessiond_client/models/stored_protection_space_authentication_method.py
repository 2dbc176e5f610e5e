from enum import StrEnum


class StoredProtectionSpaceAuthenticationMethod(StrEnum):
    NSURLAUTHENTICATIONMETHODCLIENTCERTIFICATE = "NSURLAuthenticationMethodClientCertificate"
    NSURLAUTHENTICATIONMETHODDEFAULT = "NSURLAuthenticationMethodDefault"
    NSURLAUTHENTICATIONMETHODHTTPBASIC = "NSURLAuthenticationMethodHTTPBasic"
    NSURLAUTHENTICATIONMETHODHTTPDIGEST = "NSURLAuthenticationMethodHTTPDigest"
    NSURLAUTHENTICATIONMETHODNEGOTIATE = "NSURLAuthenticationMethodNegotiate"
    NSURLAUTHENTICATIONMETHODNTLM = "NSURLAuthenticationMethodNTLM"
    NSURLAUTHENTICATIONMETHODSERVERTRUST = "NSURLAuthenticationMethodServerTrust"

    def __str__(self) -> str:
        return str(self.value)
