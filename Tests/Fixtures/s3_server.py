#!/usr/bin/env python3
"""An S3-compatible object store on loopback for the tests of the object store option: moto's server.

    s3_server.py --bucket NAME --credentials-file F --port-file P [--exit-on-stdin-eof]

Needs the test venv (`moto[server]` from PyPI, pinned in the Makefile's PYTHON_TEST_PACKAGES). Why moto and
not MinIO: MinIO is neither a Debian package nor on PyPI, and moto is; it speaks S3's REST API (path-style
URLs, SigV4, ranged GETs, HEAD, DELETE), which is all the service uses.

moto checks no signature by default. This script makes it check every request: it first creates, without
authentication, an IAM user with an access key and a policy allowing `s3:*`, and the bucket; then it sets moto's
`INITIAL_NO_AUTH_ACTION_COUNT` to 0, so from then on each request must carry a valid SigV4 signature by a known
key (a wrong secret answers 403 `SignatureDoesNotMatch`). The key and secret are written to --credentials-file
as two lines (access key id, secret), before the port goes to --port-file (both written to a temporary name
and renamed, so a reader never sees half of one). --exit-on-stdin-eof ends the server when its stdin closes
(the launcher went away without a signal). SIGTERM and SIGINT end it cleanly.
"""
import argparse
import json
import os
import signal
import sys
import threading

# Before moto is imported: it reads its settings once.
os.environ.setdefault("MOTO_ALLOW_NONEXISTENT_REGION", "true")

import boto3  # noqa: E402  (installed with moto)
from moto import settings  # noqa: E402
from moto.moto_server.threaded_moto_server import ThreadedMotoServer  # noqa: E402

ALLOW_S3 = json.dumps({"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]})


def write_atomically(path, text):
    temporary = path + ".tmp"
    with open(temporary, "w") as f:
        f.write(text)
    os.rename(temporary, path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bucket", required=True)
    parser.add_argument("--credentials-file", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    args = parser.parse_args()

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    _, port = server.get_host_and_port()
    endpoint = f"http://127.0.0.1:{port}"

    # Set-up, unauthenticated: moto authenticates nothing while INITIAL_NO_AUTH_ACTION_COUNT is infinite.
    setup = {"endpoint_url": endpoint, "region_name": "us-east-1", "aws_access_key_id": "setup", "aws_secret_access_key": "setup"}
    iam = boto3.client("iam", **setup)
    iam.create_user(UserName="urlsessiond")
    iam.put_user_policy(UserName="urlsessiond", PolicyName="s3", PolicyDocument=ALLOW_S3)
    key = iam.create_access_key(UserName="urlsessiond")["AccessKey"]
    boto3.client("s3", **setup).create_bucket(Bucket=args.bucket)
    settings.INITIAL_NO_AUTH_ACTION_COUNT = 0  # from now on every request is authenticated

    write_atomically(args.credentials_file, f"{key['AccessKeyId']}\n{key['SecretAccessKey']}\n")
    write_atomically(args.port_file, f"{port}\n")

    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    signal.signal(signal.SIGINT, lambda *_: done.set())
    if args.exit_on_stdin_eof:
        def watch_stdin():
            while sys.stdin.buffer.read(4096):
                pass
            done.set()

        threading.Thread(target=watch_stdin, daemon=True).start()
    while not done.wait(0.5):
        pass
    server.stop()


if __name__ == "__main__":
    main()
