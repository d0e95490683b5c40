// Validates a payload against an endpoint's request schema; a failure becomes a DomainError whose Chinese msg names
// the offending field.
import * as Schema from 'effect/Schema'
import * as SchemaIssue from 'effect/SchemaIssue'
import * as Result from 'effect/Result'
import { DomainError, Status } from './errors.ts'

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

const describe = (message: string): string => {
  if (message === 'Missing key') return '不能为空'
  if (message.startsWith('Expected number')) return '应为数字'
  if (message.startsWith('Expected string')) return '应为字符串'
  if (message.startsWith('Expected boolean')) return '应为布尔值'
  if (message.startsWith('Expected object')) return '应为对象'
  if (message.startsWith('Expected array')) return '应为数组'
  if (message.startsWith('Expected a value with a length of at most')) return '过长'
  if (message.startsWith('Expected an integer')) return '应为整数'
  if (message.startsWith('Expected a value between') || message.startsWith('Expected a finite number')) return '超出范围'
  return '取值不正确'
}

export const decodeRequest = <S extends Schema.Top>(schema: S, input: unknown): S['Type'] => {
  const result = Schema.decodeUnknownResult(schema as any)(input, { errors: 'all' })
  if (Result.isSuccess(result)) return result.success as S['Type']
  const issues = formatter(result.failure.issue).issues
  const parts = issues.map((issue) => {
    const path = (issue.path ?? []).map((p) => String(typeof p === 'object' && p !== null && 'key' in p ? p.key : p))
    return path.length === 0 ? `请求参数${describe(issue.message)}` : `参数 ${path.join('.')} ${describe(issue.message)}`
  })
  throw new DomainError(Status.invalidPayload, `参数错误：${parts.join('；')}`)
}

export const encodeResponse = <S extends Schema.Top>(schema: S, data: unknown): unknown =>
  Schema.encodeUnknownSync(schema as any)(data)
