// The password registration switch: while an operator has it off, login offers no registration and the registration
// page sends people to SMS login instead.
import { test, expect } from './fixtures.ts'
import { appUrl, ops, screenshot } from './helpers.ts'

test('with password registration off, login hides it and the page points to SMS login', async ({ page }) => {
  await page.goto(appUrl('/pages/login/login'))
  await expect(page.getByTestId('login-register')).toBeVisible()
  await ops('switch', 'register', 'off')
  try {
    await page.reload()
    await expect(page.getByTestId('login-submit')).toBeVisible()
    await expect(page.getByTestId('login-register')).toHaveCount(0)
    await page.goto(appUrl('/pages/registerAccount/registerAccount'))
    await expect(page.getByTestId('register-closed')).toContainText('暂未开放密码注册')
    await screenshot(page, 'register-closed')
    await page.getByRole('link', { name: '验证码登录' }).click()
    await expect(page).toHaveURL(/quickLogin/)
  } finally {
    await ops('switch', 'register', 'on')
  }
})
