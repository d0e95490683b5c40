// Where things are: the repository root and the bench's own folders.
import { fileURLToPath } from 'node:url'
import { dirname, resolve } from 'node:path'

export const benchDir = resolve(dirname(fileURLToPath(import.meta.url)), '..')
export const repoRoot = resolve(benchDir, '..')
export const resultsDir = resolve(benchDir, 'results')
