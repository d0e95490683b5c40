// The spec's paymentPopupVisible key (§3): 'true' while the pay confirmation is open, 'false' once it closes however
// it closed; written through the core like every stored key.
type SetFlag = (key: 'paymentPopupVisible', value: string) => Promise<void>

/** runs `ask` with paymentPopupVisible set for as long as it is open. */
export const withPaymentPopupFlag = async (setLocal: SetFlag, ask: () => Promise<boolean>): Promise<boolean> => {
  void setLocal('paymentPopupVisible', 'true')
  try {
    return await ask()
  } finally {
    void setLocal('paymentPopupVisible', 'false')
  }
}
