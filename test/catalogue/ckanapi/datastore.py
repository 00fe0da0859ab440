"""The DataStore API of CKAN 2.10/2.11 as a user's script calls it with PyPI's ckanapi.

Usage: datastore.py URL API_TOKEN. Makes a dataset with a table, then reads it with
records_format=lists and csv, datastore_search_sql (POST and GET), datastore_info and
datastore_upsert; prints one JSON object with what each call returned (or raised).
"""
import json
import sys

import ckanapi

from caught import caught

url, token = sys.argv[1:3]
ckan = ckanapi.RemoteCKAN(url, apikey=token, user_agent="labld-ckanapi-test")
reader = ckanapi.RemoteCKAN(url, user_agent="labld-ckanapi-test", get_only=True)
out = {}

pkg = ckan.action.package_create(name="forces", title="Forces")
table = ckan.action.resource_create(package_id=pkg["id"], name="forces", url="https://example.org/forces.csv")
rid = table["id"]
out["resource_id"] = rid
ckan.action.datastore_create(
    resource_id=rid,
    force=True,
    primary_key=["sample"],
    fields=[{"id": "sample", "type": "text"}, {"id": "force", "type": "numeric"}],
    records=[{"sample": "a", "force": 1.5}, {"sample": "b", "force": 10}, {"sample": "c", "force": 2}],
)
out["lists"] = ckan.action.datastore_search(resource_id=rid, records_format="lists", sort="force desc")
out["csv"] = ckan.action.datastore_search(resource_id=rid, records_format="csv", sort="sample", fields="sample,force")
out["sql"] = ckan.action.datastore_search_sql(
    sql='SELECT sample, force * 2 AS doubled FROM "%s" WHERE force > 1.5 ORDER BY force' % rid
)
out["sql_get"] = reader.action.datastore_search_sql(sql='SELECT count(*) AS n FROM "%s"' % rid)
out["sql_drop"] = caught(lambda: ckan.action.datastore_search_sql(sql='DROP TABLE "%s"' % rid))
out["sql_function"] = caught(lambda: ckan.action.datastore_search_sql(sql="SELECT pg_read_file('/etc/passwd')"))
out["info"] = ckan.action.datastore_info(id=rid)
out["upsert"] = ckan.action.datastore_upsert(
    resource_id=rid, force=True, method="upsert", records=[{"sample": "a", "force": 5}, {"sample": "d", "force": 0}]
)
out["update_missing"] = caught(
    lambda: ckan.action.datastore_upsert(resource_id=rid, force=True, method="update", records=[{"force": 1}])
)
out["after"] = ckan.action.datastore_search(resource_id=rid, records_format="lists", sort="sample")
print(json.dumps(out))
