from enum import StrEnum


class AuthenticationChallengeProtectionSpaceAuthenticationMethod(StrEnum):
    NSURLAUTHENTICATIONMETHODCLIENTCERTIFICATE = "NSURLAuthenticationMethodClientCertificate"
    NSURLAUTHENTICATIONMETHODHTTPBASIC = "NSURLAuthenticationMethodHTTPBasic"
    NSURLAUTHENTICATIONMETHODHTTPDIGEST = "NSURLAuthenticationMethodHTTPDigest"
    NSURLAUTHENTICATIONMETHODNEGOTIATE = "NSURLAuthenticationMethodNegotiate"
    NSURLAUTHENTICATIONMETHODNTLM = "NSURLAuthenticationMethodNTLM"
    NSURLAUTHENTICATIONMETHODSERVERTRUST = "NSURLAuthenticationMethodServerTrust"

    def __str__(self) -> str:
        return str(self.value)
