// Typed wrappers for what Swift cannot call in OpenSSL 3: macros (the STACK_OF accessors, BIO_get_mem_data,
// XN_FLAG_RFC2253) and one C callback, so no Swift closure has to become a C function pointer.
// Accessors only; the logic lives in the Certificates target.
#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/provider.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <string.h>

// MARK: values and accessors defined as macros

/* The bytes a memory BIO holds (not copied; valid until the BIO is written to or freed). */
static inline long cossl_bio_mem_contents(BIO *_Nonnull b, const char *_Nullable *_Nonnull data) {
    char *p = NULL;
    long length = BIO_get_mem_data(b, &p);
    *data = p;
    return length;
}
/* What `openssl x509 -nameopt RFC2253` prints with. */
static inline unsigned long cossl_name_flags_rfc2253(void) { return XN_FLAG_RFC2253; }
static inline int cossl_err_lib(unsigned long e) { return ERR_GET_LIB(e); }
static inline int cossl_err_reason(unsigned long e) { return ERR_GET_REASON(e); }

// MARK: STACK_OF(X509)

static inline int cossl_x509_stack_count(const STACK_OF(X509) *_Nullable s) { return s ? sk_X509_num(s) : 0; }
static inline X509 *_Nullable cossl_x509_stack_value(const STACK_OF(X509) *_Nonnull s, int i) { return sk_X509_value(s, i); }
static inline void cossl_x509_stack_free(STACK_OF(X509) *_Nullable s) { sk_X509_pop_free(s, X509_free); }

// MARK: subjectAltName

static inline GENERAL_NAMES *_Nullable cossl_x509_subject_alt_names(const X509 *_Nonnull x) {
    return X509_get_ext_d2i(x, NID_subject_alt_name, NULL, NULL);
}
static inline int cossl_general_names_count(const GENERAL_NAMES *_Nonnull n) { return sk_GENERAL_NAME_num(n); }
/* The dNSName (GEN_DNS) or iPAddress (GEN_IPADD) of entry i; NULL for the other kinds. */
static inline const ASN1_STRING *_Nullable cossl_general_names_text(const GENERAL_NAMES *_Nonnull n, int i, int *_Nonnull type) {
    const GENERAL_NAME *name = sk_GENERAL_NAME_value(n, i);
    *type = name ? name->type : -1;
    if (name && name->type == GEN_DNS) return name->d.dNSName;
    if (name && name->type == GEN_IPADD) return name->d.iPAddress;
    return NULL;
}

// MARK: private keys

/* The passphrase is `u`; without one it fails instead of prompting on the terminal (OpenSSL's default). */
static inline int cossl_passphrase_callback(char *buf, int size, int rwflag, void *u) {
    (void)rwflag;
    if (u == NULL) return -1;
    size_t length = strlen((const char *)u);
    if (length > (size_t)size) return -1;
    memcpy(buf, u, length);
    return (int)length;
}
static inline EVP_PKEY *_Nullable cossl_read_private_key(BIO *_Nonnull b, const char *_Nullable passphrase) {
    return PEM_read_bio_PrivateKey(b, NULL, cossl_passphrase_callback, (void *)passphrase);
}
/* Unencrypted PKCS#8 ("BEGIN PRIVATE KEY"), whatever the key's type. */
static inline int cossl_write_pkcs8_private_key(BIO *_Nonnull b, const EVP_PKEY *_Nonnull key) {
    return PEM_write_bio_PKCS8PrivateKey(b, key, NULL, NULL, 0, NULL, NULL);
}

// MARK: a TLS client over a socket (a stream task's startSecureConnection)

static inline int cossl_ctx_set_min_proto_version(SSL_CTX *_Nonnull c, int version) { return (int)SSL_CTX_set_min_proto_version(c, version); }
static inline int cossl_ctx_set_max_proto_version(SSL_CTX *_Nonnull c, int version) { return (int)SSL_CTX_set_max_proto_version(c, version); }
/* Partial writes (SSL_write returns what it wrote) from a buffer that may move between retries. */
static inline void cossl_ctx_set_partial_write_modes(SSL_CTX *_Nonnull c) {
    SSL_CTX_set_mode(c, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
}
/* A peer that closes TCP without close_notify reads as an ordinary end (SSL_ERROR_ZERO_RETURN). */
static inline void cossl_ctx_ignore_unexpected_eof(SSL_CTX *_Nonnull c) { SSL_CTX_set_options(c, SSL_OP_IGNORE_UNEXPECTED_EOF); }
static inline int cossl_ctx_add1_chain_cert(SSL_CTX *_Nonnull c, X509 *_Nonnull x) { return (int)SSL_CTX_add1_chain_cert(c, x); }
static inline int cossl_set_server_name(SSL *_Nonnull s, const char *_Nonnull name) { return (int)SSL_set_tlsext_host_name(s, name); }

#endif
