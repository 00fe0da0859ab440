// Checks a mapping against the function library before any data is read, so an unknown
// function, parameter or output fails the whole run up front, naming the IRI.
import type { FunctionRegistry } from './functions/registry.ts';
import type { ExpressionMap, FunctionExecution, Mapping, TermMap } from './model.ts';

function checkExecution(execution: FunctionExecution, functions: FunctionRegistry): void {
  functions.get(execution.function);
  if (execution.output) functions.checkOutput(execution.function, execution.output);
  for (const input of execution.inputs) {
    functions.parameterIndex(execution.function, input.parameter);
    checkMap(input.value, functions);
  }
}

function checkMap(map: ExpressionMap | undefined, functions: FunctionRegistry): void {
  if (!map) return;
  if (map.expression.kind === 'function') checkExecution(map.expression.execution, functions);
  if (map.condition) checkExecution(map.condition, functions);
  const term = map as Partial<TermMap>;
  checkMap(term.datatypeMap, functions);
  checkMap(term.languageMap, functions);
}

export function validateFunctions(mapping: Mapping, functions: FunctionRegistry): void {
  for (const tm of mapping.triplesMaps) {
    checkMap(tm.subjectMap, functions);
    tm.subjectMap.graphMaps.forEach((m) => checkMap(m, functions));
    for (const pom of tm.predicateObjectMaps) {
      [...pom.predicateMaps, ...pom.objectMaps, ...pom.graphMaps].forEach((m) => checkMap(m, functions));
      for (const rom of pom.refObjectMaps) {
        for (const join of rom.joinConditions) {
          checkMap(join.child, functions);
          checkMap(join.parent, functions);
        }
      }
    }
  }
}
