// The default function library: GREL + IDLab. Callers add their own with `extend()`.
import { registerGrel } from './grel.ts';
import { registerIdlab } from './idlab.ts';
import { FunctionRegistry } from './registry.ts';

export const DEFAULT_FUNCTIONS: FunctionRegistry = new FunctionRegistry();
registerGrel(DEFAULT_FUNCTIONS);
registerIdlab(DEFAULT_FUNCTIONS);
