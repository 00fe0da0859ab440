"""PyPI pybis (openBIS's official Python client) against labld's openBIS test double.

Usage: python pybis_against_double.py <double origin> <download folder>
Prints one JSON line per step: {"step", "ok", "detail"}; a step that raises is not ok, and the
script goes on with the next step so that every failure is seen at once.
"""
import json
import os
import sys
import traceback

from pybis import Openbis

ORIGIN, DOWNLOADS = sys.argv[1], sys.argv[2]
OBJECT = "20230531140916169-35"
DATASET = "20240904142300681-40"
SPACE = "EMODUL"
PROJECT = "/EMODUL/LEBEDIGITAL"
COLLECTION = "/EMODUL/LEBEDIGITAL/LEBEDIGITAL_INGREDIENT_COLLECTION"
SAMPLE_TYPE = "EMODUL_INGREDIENT"
FILE = "original/markdown_demo.md"


def step(name):
    def run(check):
        try:
            detail = check()
            print(json.dumps({"step": name, "ok": True, "detail": detail}, default=str), flush=True)
        except Exception as error:  # every failure is reported, and the next step still runs
            trace = traceback.format_exc(limit=4)
            print(json.dumps({"step": name, "ok": False, "detail": f"{error!r}\n{trace}"}), flush=True)
        return check

    return run


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


o = Openbis(
    ORIGIN,
    verify_certificates=False,
    allow_http_but_do_not_use_this_in_production_and_only_within_safe_networks=True,
)


@step("login")
def _():
    o.login("admin", "changeit", save_token=False)
    expect(o.is_session_active(), "session not active after login")
    return o.token.split("-")[0]


@step("spaces")
def _():
    codes = [s.code for s in o.get_spaces()]
    expect(SPACE in codes, codes)
    space = o.get_space(SPACE)
    expect(space.code == SPACE, space.code)
    return codes


@step("projects")
def _():
    identifiers = list(o.get_projects(space=SPACE).df["identifier"])
    expect(PROJECT in identifiers, identifiers)
    project = o.get_project(PROJECT)
    expect(project.identifier == PROJECT, project.identifier)
    return identifiers


@step("collections")
def _():
    identifiers = list(o.get_collections(space=SPACE).df["identifier"])
    expect(COLLECTION in identifiers, identifiers)
    experiment = o.get_experiment(COLLECTION)
    expect(experiment.identifier == COLLECTION, experiment.identifier)
    return identifiers


@step("objects")
def _():
    found = o.get_samples(space=SPACE, type=SAMPLE_TYPE, props=["$NAME"])
    expect(OBJECT in list(found.df["permId"]), list(found.df["permId"]))
    sample = o.get_sample(OBJECT, props="*")
    expect(sample.code == "EMODUL_ING9", sample.code)
    expect(sample.type.code == SAMPLE_TYPE, sample.type.code)
    name = sample.props["$name"]
    expect(name == "admixture", name)
    return {"name": name, "experiment": sample.experiment.identifier if sample.experiment else None}


@step("object types")
def _():
    codes = list(o.get_sample_types().df["code"])
    expect(SAMPLE_TYPE in codes, codes)
    assigned = [a.lower() for a in o.get_sample_type(SAMPLE_TYPE).get_property_assignments().df["code"]]
    expect(f"{SAMPLE_TYPE}.bulkdensity".lower() in assigned, assigned)
    return assigned


@step("collection types")
def _():
    return list(o.get_experiment_types().df["code"])


@step("data set types")
def _():
    return list(o.get_dataset_types().df["code"])


@step("persons")
def _():
    users = list(o.get_persons().df["userId"])
    expect("admin" in users, users)
    return users


@step("person")
def _():
    person = o.get_person("admin")
    expect(person.userId == "admin", person.userId)
    return person.userId


@step("property types")
def _():
    codes = list(o.get_property_types().df["code"])
    expect("EMODUL_INGREDIENT.BULKDENSITY" in codes, codes)
    one = o.get_property_type("EMODUL_INGREDIENT.BULKDENSITY")
    expect(one.code == "EMODUL_INGREDIENT.BULKDENSITY", one.code)
    return one.dataType


@step("server information")
def _():
    return o.get_server_information().get_major_version()


@step("data sets")
def _():
    found = list(o.get_datasets(space=SPACE).df["permId"])
    expect(DATASET in found, found)
    dataset = o.get_dataset(DATASET)
    expect(dataset.permId == DATASET, dataset.permId)
    return found


@step("file list")
def _():
    dataset = o.get_dataset(DATASET)
    listed = list(dataset.get_files()["pathInDataSet"])
    expect(FILE in listed, listed)
    expect(FILE in dataset.file_list, dataset.file_list)
    return dataset.file_list


@step("file download")
def _():
    dataset = o.get_dataset(DATASET)
    # pybis's own download for servers without fast download (API <= 3.5): a GET per file from
    # the data store; the double does not serve createFastDownloadSession (see the README).
    dataset._download_physical([FILE], DOWNLOADS, True, True, 1)
    path = os.path.join(DOWNLOADS, DATASET, FILE)
    expect(os.path.exists(path), f"{path} not written")
    return path


@step("logout")
def _():
    o.logout()
    return "ok"
