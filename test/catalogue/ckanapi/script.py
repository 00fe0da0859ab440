"""What a CKAN user's script does, with the real PyPI ckanapi client against a running labld.

Usage: script.py URL API_TOKEN CSV_FILE. Prints one JSON object with what each call returned
(or the exception it raised); the node:test file that runs it checks the values.
"""
import json
import sys

import ckanapi

from caught import caught

url, token, csv_file = sys.argv[1:4]
ckan = ckanapi.RemoteCKAN(url, apikey=token, user_agent="labld-ckanapi-test")
anonymous = ckanapi.RemoteCKAN(url, user_agent="labld-ckanapi-test")
out = {}

out["status"] = ckan.action.status_show()
pkg = ckan.action.package_create(name="tensile-tests", title="Tensile tests", notes="From ckanapi")
out["created"] = pkg
with open(csv_file, "rb") as f:
    res = ckan.action.resource_create(package_id=pkg["id"], name="measurements.csv", upload=f)
out["resource"] = res
# The table is filled on a link resource: an uploaded CSV's table is what labld's chain imports
# (as CKAN's DataPusher does), and the script's own rows would race that import.
table = ckan.action.resource_create(package_id=pkg["id"], name="forces", url="https://example.org/forces.csv")
out["datastore"] = ckan.action.datastore_create(
    resource_id=table["id"],
    force=True,
    fields=[{"id": "sample", "type": "text"}, {"id": "force", "type": "numeric"}],
    records=[{"sample": "a", "force": 1.5}, {"sample": "b", "force": 10}, {"sample": "c", "force": 2}],
)
out["list"] = ckan.action.package_list()
out["show"] = ckan.action.package_show(id="tensile-tests")
out["search"] = ckan.action.package_search(q="tensile")
out["patch"] = ckan.action.package_patch(id=pkg["id"], title="Tensile tests, patched")
out["rows"] = ckan.action.datastore_search(
    resource_id=table["id"], filters={"sample": ["a", "c"]}, sort="force desc"
)
out["rows_anonymous"] = caught(lambda: anonymous.action.datastore_search(resource_id=table["id"], sort="force asc"))
out["taken"] = caught(lambda: ckan.action.package_create(name="tensile-tests"))
out["bad_sort"] = caught(
    lambda: ckan.action.datastore_search(resource_id=table["id"], sort="sample; DROP TABLE x")
)
out["anonymous_create"] = caught(lambda: anonymous.action.package_create(name="not-mine"))
out["unknown_action"] = caught(lambda: ckan.call_action("package_frobnicate", {}))
ckan.action.package_create(
    name="hardness", title="Hardness", resources=[{"url": "https://example.org/iso-6507.pdf"}]
)
out["facets"] = ckan.action.package_search(**{"facet.field": ["res_format", "groups"], "facet.limit": 10})
out["fq_list"] = ckan.action.package_search(fq_list=["res_format:PDF", "-name:tensile-tests"])
out["fq_quoted"] = ckan.action.package_search(fq='+res_format:"CSV" -name:hardness')
getter = ckanapi.RemoteCKAN(url, user_agent="labld-ckanapi-test", get_only=True)
out["facets_get"] = getter.action.package_search(**{"facet.field": '["res_format"]', "fq": "name:hardness"})
out["bad_fq"] = caught(lambda: ckan.action.package_search(fq="title:[a TO b]"))
out["unknown_param"] = caught(lambda: ckan.action.package_search(qf="title^2"))
out["deleted"] = ckan.action.package_delete(id=pkg["id"])
out["after_delete"] = caught(lambda: ckan.action.package_show(id="tensile-tests"))
print(json.dumps(out))
