/** `npm run schema:types`: rewrite the contract tests' client types from the server's OpenAPI document. */
import { writeFileSync } from 'node:fs';
import { API_TYPES_FILE, apiTypesSource } from '../test/contract/api-types-source.js';

writeFileSync(API_TYPES_FILE, await apiTypesSource());
console.log(`wrote ${API_TYPES_FILE}`);
