export { districtZipStream, generateDistrict } from './generate-district';
export type { DistrictCounts, DistrictOptions, DistrictZip } from './generate-district';
export type { DeltaCounts } from './district-delta';
export type { PinnedPerson } from './district-model';
export type { InjectedError } from './district-rows';
export { ONEROSTER_HEADERS, MANIFEST_HEADER, MANIFEST_FILE_PROPERTIES } from './oneroster-csv';
export { usernameFor } from './names';
export { demoDistrictOptions, demoSourcedId } from './demo-district';
