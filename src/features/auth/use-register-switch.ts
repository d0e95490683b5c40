// getPasswordRegisterSwitch for the login and registration screens: null until the server answers (the entry stays
// offered meanwhile: the server refuses a registration while the switch is off anyway).
import { useEffect, useState } from 'react'
import { useCore } from '../../core-context.tsx'

export const usePasswordRegisterSwitch = (): boolean | null => {
  const { api } = useCore()
  const [on, setOn] = useState<boolean | null>(null)
  useEffect(() => {
    let live = true
    void api.call('getPasswordRegisterSwitch', {}).then((r) => live && r.ok && setOn(r.data === true))
    return () => {
      live = false
    }
  }, [api])
  return on
}
