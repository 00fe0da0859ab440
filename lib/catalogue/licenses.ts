// CKAN's default licence list (ckan/model/license.py, as license_list answers it), because CKAN
// scripts send these ids as license_id and read license_title and isopen back.
export interface License {
  id: string;
  title: string;
  url: string;
  /** Open by the Open Definition (CKAN's isopen). */
  is_okd_compliant: boolean;
}

const od = (id: string) => `http://www.opendefinition.org/licenses/${id}`;

export const LICENSES: readonly License[] = [
  { id: 'notspecified', title: 'License not specified', url: '', is_okd_compliant: false },
  {
    id: 'odc-pddl',
    title: 'Open Data Commons Public Domain Dedication and License (PDDL)',
    url: od('odc-pddl'),
    is_okd_compliant: true,
  },
  {
    id: 'odc-odbl',
    title: 'Open Data Commons Open Database License (ODbL)',
    url: od('odc-odbl'),
    is_okd_compliant: true,
  },
  { id: 'odc-by', title: 'Open Data Commons Attribution License', url: od('odc-by'), is_okd_compliant: true },
  { id: 'cc-zero', title: 'Creative Commons CCZero', url: od('cc-zero'), is_okd_compliant: true },
  { id: 'cc-by', title: 'Creative Commons Attribution', url: od('cc-by'), is_okd_compliant: true },
  {
    id: 'cc-by-sa',
    title: 'Creative Commons Attribution Share-Alike',
    url: od('cc-by-sa'),
    is_okd_compliant: true,
  },
  { id: 'gfdl', title: 'GNU Free Documentation License', url: od('gfdl'), is_okd_compliant: true },
  { id: 'other-open', title: 'Other (Open)', url: '', is_okd_compliant: true },
  { id: 'other-pd', title: 'Other (Public Domain)', url: '', is_okd_compliant: true },
  { id: 'other-at', title: 'Other (Attribution)', url: '', is_okd_compliant: true },
  {
    id: 'uk-ogl',
    title: 'UK Open Government Licence (OGL)',
    url: 'http://reference.data.gov.uk/id/open-government-licence',
    is_okd_compliant: true,
  },
  {
    id: 'cc-nc',
    title: 'Creative Commons Non-Commercial (Any)',
    url: 'http://creativecommons.org/licenses/by-nc/2.0/',
    is_okd_compliant: false,
  },
  { id: 'other-nc', title: 'Other (Non-Commercial)', url: '', is_okd_compliant: false },
  { id: 'other-closed', title: 'Other (Not Open)', url: '', is_okd_compliant: false },
];

/** The licence of an id, if it is one of the list (CKAN keeps an id not in it as given). */
export function licenseOf(id: string): License | undefined {
  return LICENSES.find((l) => l.id === id);
}
