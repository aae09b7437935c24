const port = process.argv[2];
const root = require(process.env.KII_SDK_COPY).create();
const { Kii, KiiUser } = root;
global.TRACE = process.env.TRACE === '1';
Kii.initializeWithSite('understudy-kii-app', 'understudy-kii-key', `http://127.0.0.1:${port}/api`);
const control = (path) => new Promise(r => require('http').get(`http://127.0.0.1:${port}/_understudy/${path}`, res => { let d=''; res.on('data', c=>d+=c); res.on('end', ()=>r(JSON.parse(d))); }));
const ok = (label) => (v) => { console.log('OK  ', label); return v; };
const expectFail = (label, p, want) => p.then(() => { console.log('FAIL', label, 'succeeded'); process.exitCode = 1; },
  (e) => { const text = String(e && e.message || e); const good = text.includes(want); console.log(good ? 'OK  ' : 'FAIL', label, '->', text.slice(0, 120)); if (!good) process.exitCode = 1; });
(async () => {
  try {
    let user = KiiUser.userWithCredentials('jsuser@mi6.co.uk', '+819012345670', 'jsuser', 'secret1');
    user = await user.register().then(ok('register'));
    const oldToken = user.getAccessToken();
    await user.update(null, null, { displayName: 'JS', score: 7, motto: '100% js' }).then(ok('update (displayName, custom fields)'));
    await user.refresh().then(ok('refresh'));
    console.log('     custom score =', user.get('score'), 'motto =', user.get('motto'));
    await user.update(null, null, { rank: 'captain' }, ['score']).then(ok('update again (removeFields)'));
    await user.refresh();
    const merged = user.get('score') === undefined && user.get('rank') === 'captain' && user.getDisplayName() === 'JS';
    console.log(merged ? 'OK  ' : 'FAIL', 'merge rule: score removed, rank set, displayName kept');
    if (!merged) process.exitCode = 1;
    await user.save().then(ok('save'));
    await user.updatePassword('secret1', 'secret2').then(ok('updatePassword'));
    await expectFail('refresh with the old token', user.refresh(), 'WRONG_TOKEN');
    user = await KiiUser.authenticate('jsuser@mi6.co.uk', 'secret2').then(ok('authenticate with the new password'));
    const push = user.pushInstallation();
    const gcm = await push.installGcm('reg-1', false).then(ok('installGcm'));
    console.log('     installationID', gcm.installationID);
    const mqtt = await push.installMqtt(false).then(ok('installMqtt'));
    const again = await push.installMqtt(false).then(ok('installMqtt again'));
    console.log('     same MQTT installation:', mqtt.installationID === again.installationID);
    await push.uninstall('reg-1', 'ANDROID').then(ok('uninstall ANDROID reg-1'));
    await expectFail('uninstall again', push.uninstall('reg-1', 'ANDROID'), 'INSTALLATION_NOT_FOUND');
    await expectFail('getMqttEndpoint (no broker)', push.getMqttEndpoint(mqtt.installationID), 'MQTT_ENDPOINT_NOT_READY');
    await KiiUser.resetPassword('jsuser@mi6.co.uk').then(ok('resetPassword (legacy, email)'));
    await KiiUser.resetPasswordWithNotificationMethod('jsuser@mi6.co.uk', 'EMAIL').then(ok('resetPasswordWithNotificationMethod EMAIL'));
    await KiiUser.resetPasswordWithNotificationMethod('+819012345670', 'SMS_PIN').then(ok('resetPasswordWithNotificationMethod SMS_PIN'));
    const sms = await control('outbox?kind=sms');
    const pin = sms.sms[sms.sms.length - 1].code;
    await expectFail('completeResetPassword wrong PIN', KiiUser.completeResetPassword('+819012345670', '000000', 'secret3'), 'INVALID_VERIFICATION_CODE');
    await KiiUser.completeResetPassword('+819012345670', pin, 'secret3').then(ok('completeResetPassword'));
    user = await KiiUser.authenticate('jsuser@mi6.co.uk', 'secret3').then(ok('authenticate after the reset'));
    await expectFail('resetPassword of an unknown email', KiiUser.resetPassword('nobody@mi6.co.uk'), 'USER_NOT_FOUND');
    await user.delete().then(ok('delete'));
    await expectFail('authenticate after delete', KiiUser.authenticate('jsuser@mi6.co.uk', 'secret3'), 'invalid_grant');
  } catch (e) { console.log('FAIL exception', e && (e.message || e), e && e.stack); process.exitCode = 1; }
})();
