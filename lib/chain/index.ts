// The catalogue automation chain's domain (spec "Automation chain (CSV path)", "Mapping
// selection rules"): which uploads start it and what it names its outputs, the steps as
// functions over stored files, mapping selection, and the step status model. The chain's
// consumers are thin shells around these; see DESIGN §2.
export {
  DERIVED_KINDS,
  DESCRIPTOR_TYPE,
  TURTLE_TYPE,
  baseName,
  derivedNames,
  derivedReadings,
  descriptorAlias,
  outputName,
  extensionOf,
  startsChain,
  triggerFormats,
  type DerivedKind,
  type DerivedName,
  type UploadedFile,
} from './names.ts';
export { forTheBus } from './failed-step.ts';
export { chainLoaders, type ChainFile, type ChainLoaders, type KnownFile, type TextFile } from './files.ts';
export {
  annotateStep,
  convertStep,
  describeLimit,
  describeStep,
  TURTLE_PER_CSV_BYTE,
  type StepContext,
  type StepSettings,
  type StepOutput,
} from './steps.ts';
export {
  MAPPING_STRATEGIES,
  chooseMapping,
  mappingStrategy,
  qualifies,
  rankMappings,
  selectMapping,
  type CheckedMapping,
  type MappingEntry,
  type MappingStrategy,
  type RankedMapping,
  type SelectInput,
  type Selection,
} from './select.ts';
export {
  CHAIN_STEPS,
  LOAD_STEP,
  NEEDS_MAPPING,
  failStep,
  finishStep,
  progressStep,
  queueStep,
  startStep,
  stepFailure,
  type ChainStep,
  type EndState,
  type Progress,
  type StepFailure,
  type StepState,
  type StepStatus,
  type StepSummary,
  type StatusStep,
} from './status.ts';
export {
  CHAIN_EVENTS,
  eventReadBy,
  eventStarting,
  groupOf,
  stepOf,
  type ChainEventName,
  type ChainGroup,
} from './events.ts';
export {
  FIRST_STEP,
  FORGET,
  OUTPUTS,
  PIPELINE,
  deadLetterGroup,
  groupOfStep,
  stepEntry,
  type OutputDeclaration,
  type PipelineEntry,
  type RunsIn,
  type StepDeclaration,
} from './pipeline.ts';
export { deadLetterOf, replayOf, type DeadLetter, type DeadLetterMessage } from './dead-letters.ts';
