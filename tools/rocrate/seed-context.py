"""Seed roc-validator's HTTP cache with the RO-Crate JSON-LD context, for machines without
internet (the validator expands every crate with https://w3id.org/ro/crate/1.1/context).

The context comes from PyPI's `rocrate` package (installed beside roc-validator by .ci/run);
it is the 1.3 context, whose terms are a superset of 1.1's with the same IRIs for every term
of the 1.1 specification (schema.org http IRIs, File = schema:MediaObject, conformsTo =
dct:conformsTo). Usage: seed-context.py <cache path without .sqlite>
"""
import io
import json
import sys
from importlib.resources import files

import requests
from requests_cache import CachedSession
from urllib3 import HTTPResponse

URLS = ["https://w3id.org/ro/crate/1.1/context"]
ACCEPT = "application/ld+json, application/json, */*;q=0.1"  # what the validator's loader sends


def main(cache_path: str) -> None:
    context = json.loads(files("rocrate").joinpath("data/ro-crate.jsonld").read_text("utf-8"))
    body = json.dumps(context).encode("utf-8")
    session = CachedSession(cache_name=cache_path, backend="sqlite", allowable_methods=("GET",), allowable_codes=(200, 302, 404))
    for url in URLS:
        request = requests.Request("GET", url, headers={"Accept": ACCEPT}).prepare()
        response = requests.Response()
        response.status_code = 200
        response._content = body
        response.url = url
        response.headers["Content-Type"] = "application/ld+json"
        response.request = request
        response.encoding = "utf-8"
        response.raw = HTTPResponse(
            body=io.BytesIO(body), headers=dict(response.headers), status=200, preload_content=False, request_url=url
        )
        session.cache.save_response(response)
        # Also under the key of a request with the session's default headers.
        plain = session.prepare_request(requests.Request("GET", url, headers={"Accept": ACCEPT}))
        response.request = plain
        session.cache.save_response(response)
    print(f"seeded {len(URLS)} context(s) into {cache_path}.sqlite")


if __name__ == "__main__":
    main(sys.argv[1])
