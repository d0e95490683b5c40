// A switch of the backend's configuration, sent as a boolean or as 0/1 (issue 8: maintenanceSwitch arrives both
// ways); decoded to a boolean, encoded (by the reference server) as a boolean.
import * as Schema from 'effect/Schema'
import * as SchemaTransformation from 'effect/SchemaTransformation'

export const SwitchFlag = Schema.Union([Schema.Boolean, Schema.Literals([0, 1])]).pipe(
  Schema.decodeTo(
    Schema.Boolean,
    SchemaTransformation.transform<boolean, boolean | 0 | 1>({ decode: (v) => v === true || v === 1, encode: (b) => b }),
  ),
)
