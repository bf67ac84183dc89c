#!/bin/sh
# Regenerates the PEM fixtures of PemKeysTest with OpenSSL 3. Test keys only: never use them.
set -eu
cd "$(dirname "$0")"
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out ec-p256-pkcs8.pem
openssl pkey -in ec-p256-pkcs8.pem -pubout -out ec-p256-public.pem
openssl ec -in ec-p256-pkcs8.pem -out ec-p256-sec1.pem 2>/dev/null
openssl ec -in ec-p256-pkcs8.pem -no_public -out ec-p256-sec1-no-public.pem 2>/dev/null
openssl ec -in ec-p256-pkcs8.pem -pubout -conv_form compressed -out ec-p256-public-compressed.pem 2>/dev/null
openssl ec -in ec-p256-pkcs8.pem -param_enc explicit -out ec-p256-sec1-explicit.pem 2>/dev/null
openssl ecparam -name prime256v1 -genkey -out ec-p256-ecparam-genkey.pem
openssl pkcs8 -topk8 -in ec-p256-pkcs8.pem -v2 aes-256-cbc -passout pass:fixture-password -out ec-p256-encrypted.pem
openssl genpkey -algorithm Ed25519 -out ed25519-pkcs8.pem
openssl pkey -in ed25519-pkcs8.pem -pubout -out ed25519-public.pem
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384 -out ec-p384-pkcs8.pem
openssl ec -in ec-p384-pkcs8.pem -out ec-p384-sec1.pem 2>/dev/null
openssl pkey -in ec-p384-pkcs8.pem -pubout -out ec-p384-public.pem
openssl ecparam -name secp256k1 -genkey -noout -out ec-secp256k1-sec1.pem
openssl genpkey -algorithm Ed448 -out ed448-pkcs8.pem
openssl genpkey -algorithm X25519 -out x25519-pkcs8.pem
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out rsa-pkcs8.pem
openssl pkey -in rsa-pkcs8.pem -pubout -out rsa-public.pem
openssl pkey -in rsa-pkcs8.pem -traditional -out rsa-traditional.pem
cat ec-p256-pkcs8.pem ed25519-pkcs8.pem > two-private-keys.pem
openssl req -x509 -key ec-p256-pkcs8.pem -subj /CN=fixture -days 3650 -out ec-p256-cert.pem
