"""Organizations with the real PyPI ckanapi client against a running labld, as a CKAN admin's
script would use them: made by a sysadmin, members given roles, datasets put into them, and
what each role may then do.

Usage: organizations.py URL SYSADMIN_TOKEN EDITOR_TOKEN MEMBER_TOKEN OUTSIDER_TOKEN. Prints one
JSON object with what each call returned (or the exception it raised); the node:test file that
runs it checks the values.
"""
import json
import sys

import ckanapi

from caught import caught

url, root_token, editor_token, member_token, outsider_token = sys.argv[1:6]


def client(token=None):
    return ckanapi.RemoteCKAN(url, apikey=token, user_agent="labld-ckanapi-test")


root, editor, member, outsider = (client(t) for t in (root_token, editor_token, member_token, outsider_token))
anonymous = client()
out = {}



out["created"] = root.action.organization_create(name="lab", title="The Lab", description="Tensile tests")
out["not_sysadmin"] = caught(lambda: editor.action.organization_create(name="mine"))
root.action.organization_member_create(id="lab", username="eddie", role="editor")
root.action.organization_member_create(id="lab", username="mia", role="member")
out["private"] = editor.action.package_create(name="runs", owner_org="lab", private=True)
out["public"] = editor.action.package_create(name="published", owner_org="lab", title="Published runs")
out["member_create"] = caught(lambda: member.action.package_create(name="nope", owner_org="lab"))
out["no_org"] = caught(lambda: editor.action.package_create(name="nope", owner_org="nowhere"))
out["member_show"] = caught(lambda: member.action.package_show(id="runs"))
out["member_patch"] = caught(lambda: member.action.package_patch(id="runs", notes="x"))
out["editor_patch"] = caught(lambda: editor.action.package_patch(id="runs", notes="edited"))
out["outsider_show"] = caught(lambda: outsider.action.package_show(id="runs"))
out["outsider_missing"] = caught(lambda: outsider.action.package_show(id="no-such-set"))
out["anonymous_show"] = caught(lambda: anonymous.action.package_show(id="runs"))
out["anonymous_missing"] = caught(lambda: anonymous.action.package_show(id="no-such-set"))
facets = {"facet.field": json.dumps(["organization"]), "include_private": True}
out["search_member"] = member.action.package_search(fq="organization:lab", **facets)
out["search_anonymous"] = anonymous.action.package_search(fq="organization:lab", **facets)
out["list"] = anonymous.action.organization_list(all_fields=True)
out["for_editor"] = editor.action.organization_list_for_user(permission="create_dataset")
out["members"] = member.action.member_list(id="lab", object_type="user")
out["show_anonymous"] = anonymous.action.organization_show(id="lab", include_datasets=True)
out["editor_org_patch"] = caught(lambda: editor.action.organization_patch(id="lab", title="x"))
root.action.organization_member_delete(id="lab", username="mia")
out["after_removal"] = caught(lambda: member.action.package_show(id="runs"))

print(json.dumps(out))
