"""SPARQL protocol clients as their users call them, against a running labld's dataset endpoints.

Usage: sparql_clients.py PUBLIC_ENDPOINT PRIVATE_ENDPOINT USER PASSWORD TOKEN. Prints one JSON
line per step: {"step", "ok", "detail"} (detail: what came back, or the exception's class and
text); the node:test file that runs it checks them.
"""
import json
import sys
import traceback

import rdflib
from rdflib.plugins.stores.sparqlstore import SPARQLStore
from SPARQLWrapper import (
    CSV, GET, JSON, JSONLD, N3, POST, POSTDIRECTLY, RDFXML, TSV, TURTLE, URLENCODED, XML,
    SPARQLWrapper,
)
from SPARQLWrapper.SPARQLExceptions import QueryBadFormed, Unauthorized

public, private, user, password, token = sys.argv[1:6]
SELECT = "SELECT ?s ?force WHERE { ?s <http://example.org/force> ?force } ORDER BY ?force"
CONSTRUCT = "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }"


def step(name, work):
    try:
        print(json.dumps({"step": name, "ok": True, "detail": work()}), flush=True)
    except Exception as e:  # the test reads which exception, and why
        print(json.dumps({"step": name, "ok": False, "detail": [type(e).__name__, str(e)[:500],
                                                                  traceback.format_exc()[-800:]]}), flush=True)


def wrapper(endpoint, method, request_method, query, return_format):
    sparql = SPARQLWrapper(endpoint, agent="labld-sparqlwrapper-test")
    sparql.setMethod(method)
    sparql.setRequestMethod(request_method)
    sparql.setQuery(query)
    sparql.setReturnFormat(return_format)
    return sparql


def ran(sparql):
    result = sparql.query()
    return result.info()["content-type"], result.convert()


def forces_json(data):
    return [b["force"]["value"] for b in data["results"]["bindings"]]


def forces_xml(document):
    return [r.getElementsByTagName("literal")[0].firstChild.data
            for r in document.getElementsByTagName("result")
            for b in r.getElementsByTagName("binding") if b.getAttribute("name") == "force"]


def lines(data):
    return data.decode("utf-8").splitlines()


def triples(data, fmt):
    if isinstance(data, rdflib.Graph):
        return len(data)
    return len(rdflib.Graph().parse(data=data, format=fmt))


METHODS = {"GET": (GET, URLENCODED), "POST": (POST, POSTDIRECTLY), "POST form": (POST, URLENCODED)}

for label, (method, request_method) in METHODS.items():
    def select(fmt, read):
        def work():
            kind, data = ran(wrapper(public, method, request_method, SELECT, fmt))
            return [kind, read(data)]
        return work

    step(f"SPARQLWrapper {label} SELECT json", select(JSON, forces_json))
    step(f"SPARQLWrapper {label} SELECT xml", select(XML, forces_xml))
    step(f"SPARQLWrapper {label} SELECT csv", select(CSV, lines))
    step(f"SPARQLWrapper {label} SELECT tsv", select(TSV, lines))

    def construct(fmt, parse_as, accept=None):
        def work():
            sparql = wrapper(public, method, request_method, CONSTRUCT, fmt)
            if accept:
                # SPARQLWrapper has no N-Triples format: by content negotiation alone.
                sparql.setOnlyConneg(True)
                sparql.addCustomHttpHeader("Accept", accept)
            kind, data = ran(sparql)
            return [kind, triples(data, parse_as)]
        return work

    step(f"SPARQLWrapper {label} CONSTRUCT turtle", construct(TURTLE, "turtle"))
    step(f"SPARQLWrapper {label} CONSTRUCT n-triples", construct(N3, "nt", "application/n-triples"))
    step(f"SPARQLWrapper {label} CONSTRUCT rdf/xml", construct(RDFXML, "xml"))
    step(f"SPARQLWrapper {label} CONSTRUCT json-ld", construct(JSONLD, "json-ld"))

    def malformed():
        try:
            wrapper(public, method, request_method, "SELECT ?s WHERE { ?s", JSON).query()
        except QueryBadFormed as e:
            return ["QueryBadFormed", str(e)[:300]]
        return ["no exception"]

    step(f"SPARQLWrapper {label} malformed", malformed)

    def private_read(credentials):
        def work():
            sparql = wrapper(private, method, request_method, SELECT, JSON)
            if credentials:
                sparql.setCredentials(*credentials)
            try:
                return forces_json(sparql.queryAndConvert())
            except Unauthorized as e:
                return ["Unauthorized", str(e)[:300]]
        return work

    step(f"SPARQLWrapper {label} private anonymous", private_read(None))
    step(f"SPARQLWrapper {label} private password", private_read((user, password)))
    step(f"SPARQLWrapper {label} private token", private_read((user, token)))

for label, method in {"GET": "GET", "POST": "POST", "POST form": "POST_FORM"}.items():
    for fmt in ["json", "xml", "csv", "tsv"]:
        def store_select(fmt=fmt, method=method):
            graph = rdflib.Graph(SPARQLStore(public, method=method, returnFormat=fmt))
            return [str(row.force) for row in graph.query(SELECT)]
        step(f"SPARQLStore {label} SELECT {fmt}", store_select)

    def store_construct(method=method):
        graph = rdflib.Graph(SPARQLStore(public, method=method))
        return len(graph.query(CONSTRUCT).graph)

    step(f"SPARQLStore {label} CONSTRUCT", store_construct)

    def store_private(auth, method=method):
        def work():
            graph = rdflib.Graph(SPARQLStore(private, method=method, returnFormat="json", auth=auth))
            return [str(row.force) for row in graph.query(SELECT)]
        return work

    def store_anonymous(method=method):
        graph = rdflib.Graph(SPARQLStore(private, method=method, returnFormat="json"))
        try:
            answer = graph.query(SELECT)
        except ValueError as e:  # GET: rdflib raises this from the HTTPError
            return getattr(e.__context__, "code", None)
        # POST: rdflib hands back (status, message, None) instead of raising.
        return answer[0] if isinstance(answer, tuple) else "rows"

    step(f"SPARQLStore {label} private password", store_private((user, password)))
    step(f"SPARQLStore {label} private anonymous", store_anonymous)
