// The steps of scripts/kii-js-sdk/check: the real Kii JS SDK (KiiSDK.js, Node build) against `understudy serve` on
// the port given. Steps tagged { v: 3 } need contract version 3 (../shared/spec/v3.md): pseudo users and topics;
// { v: 4 } version 4 (v4.md): sign-up fields, other users' records, MFA, the MQTT endpoint (a push received by
// mqtt.js, Debian's node-mqtt, with the endpoint's credentials), topic ACLs, groups and KiiSocialConnect.
//   KII_SDK_COPY=/path/KiiSDK.js node run.js PORT MQTT_PORT
const { Check, expect, expectEqual } = require('../lib/sdk-check');

const port = process.argv[2];
const mqttPort = Number(process.argv[3] || 0);
const check = new Check(port);
const root = require(process.env.KII_SDK_COPY).create();
const { Kii, KiiUser, KiiPushMessageBuilder, KiiACLEntry, KiiACLAction, KiiAnyAuthenticatedUser, KiiSocialConnect, KiiSocialNetworkName } = root;
global.TRACE = process.env.TRACE === '1';
const APP = 'understudy-kii-app';
Kii.initializeWithSite(APP, 'understudy-kii-key', `http://127.0.0.1:${port}/api`);

const outbox = (kind) => check.outbox(kind, APP);
const installationsOf = (pushes) => pushes.map(p => p.installation_id).sort();

(async () => {
  try {
    await versions1and2();
    await version3PseudoUsers();
    await version3Topics();
    await version4();
  } catch (e) {
    console.log('FAIL exception', e && (e.stack || e.message || e));
    process.exitCode = 1;
  }
  check.summary();
})();

async function versions1and2() {
  let user = await check.step('register', () => KiiUser.userWithCredentials('jsuser@mi6.co.uk', '+819012345670', 'jsuser', 'secret1').register());
  if (!user) throw new Error('sign-up failed: the other steps need the user');
  await check.step('update (displayName, custom fields)', () => user.update(null, null, { displayName: 'JS', score: 7, motto: '100% js' }));
  await check.step('refresh (custom fields read back, a % kept)', async () => {
    await user.refresh();
    expectEqual([user.get('score'), user.get('motto')], [7, '100% js'], 'custom fields');
  });
  await check.step('update again (removeFields): the merge rule', async () => {
    await user.update(null, null, { rank: 'captain' }, ['score']);
    await user.refresh();
    expectEqual([user.get('score'), user.get('rank'), user.getDisplayName()], [undefined, 'captain', 'JS'], 'score removed, rank set, displayName kept');
  });
  await check.step('save', () => user.save());
  await check.step('updatePassword', () => user.updatePassword('secret1', 'secret2'));
  await check.fails('refresh with the old token', () => user.refresh(), 'WRONG_TOKEN');
  user = await check.step('authenticate with the new password', () => KiiUser.authenticate('jsuser@mi6.co.uk', 'secret2')) || user;
  const push = user.pushInstallation();
  await check.step('installGcm', async () => {
    const gcm = await push.installGcm('reg-1', false);
    expect(typeof gcm.installationID === 'string', `installationID, got ${JSON.stringify(gcm)}`);
  });
  let mqtt;
  await check.step('installMqtt twice: the same installation', async () => {
    mqtt = await push.installMqtt(false);
    const again = await push.installMqtt(false);
    expectEqual(again.installationID, mqtt.installationID, 'installationID');
  });
  await check.step('uninstall ANDROID reg-1', () => push.uninstall('reg-1', 'ANDROID'));
  await check.fails('uninstall again', () => push.uninstall('reg-1', 'ANDROID'), 'INSTALLATION_NOT_FOUND');
  await check.step('resetPassword (legacy, email)', () => KiiUser.resetPassword('jsuser@mi6.co.uk'));
  await check.step('resetPasswordWithNotificationMethod EMAIL', () => KiiUser.resetPasswordWithNotificationMethod('jsuser@mi6.co.uk', 'EMAIL'));
  await check.step('resetPasswordWithNotificationMethod SMS_PIN', () => KiiUser.resetPasswordWithNotificationMethod('+819012345670', 'SMS_PIN'));
  await check.fails('completeResetPassword with a wrong PIN', () => KiiUser.completeResetPassword('+819012345670', '000000', 'secret3'), 'INVALID_VERIFICATION_CODE');
  await check.step('completeResetPassword with the texted PIN', async () => {
    const sms = await outbox('sms');
    await KiiUser.completeResetPassword('+819012345670', sms[sms.length - 1].code, 'secret3');
  });
  user = await check.step('authenticate after the reset', () => KiiUser.authenticate('jsuser@mi6.co.uk', 'secret3')) || user;
  await check.fails('resetPassword of an unknown email', () => KiiUser.resetPassword('nobody@mi6.co.uk'), 'USER_NOT_FOUND');
  await check.step('delete', () => user.delete());
  await check.fails('authenticate after delete', () => KiiUser.authenticate('jsuser@mi6.co.uk', 'secret3'), 'invalid_grant');
}

async function version3PseudoUsers() {
  let anon;
  await check.step('registerAsPseudoUser: a token, isPseudoUser()', async () => {
    anon = await KiiUser.registerAsPseudoUser(null, { displayName: 'Anon', level: 3 });
    expect(typeof anon.getAccessToken() === 'string', 'an access token');
    expectEqual([anon.isPseudoUser(), anon.getUsername() || null, anon.getEmailAddress() || null, anon.getPhoneNumber() || null],
      [true, null, null, null], 'isPseudoUser, username, email, phone');
    expectEqual(KiiUser.getCurrentUser() && KiiUser.getCurrentUser().getID(), anon.getID(), 'current user');
  }, { v: 3 });
  await check.step('refresh a pseudo user: still pseudo (_hasPassword false)', async () => {
    await anon.refresh();
    expectEqual([anon.isPseudoUser(), anon.getDisplayName(), anon.get('level')], [true, 'Anon', 3], 'isPseudoUser, displayName, level');
  }, { v: 3 });
  let token;
  await check.step('putIdentity (username, password, a custom field)', async () => {
    token = anon.getAccessToken();
    await anon.putIdentity({ username: 'anon1' }, 'secret1', null, { level: 4 });
    expectEqual([anon.isPseudoUser(), anon.getUsername()], [false, 'anon1'], 'isPseudoUser, username');
  }, { v: 3 });
  await check.step('the same token keeps working after putIdentity', async () => {
    expectEqual(anon.getAccessToken(), token, 'token');
    await anon.refresh();
    expectEqual([anon.isPseudoUser(), anon.getUsername(), anon.get('level')], [false, 'anon1', 4], 'after refresh');
  }, { v: 3 });
  await check.step('authenticate with the identity put', async () => {
    const user = await KiiUser.authenticate('anon1', 'secret1');
    expectEqual(user.getID(), anon.getID(), 'userID');
  }, { v: 3 });
  await check.fails('putIdentity with a username another user holds', async () => {
    const second = await KiiUser.registerAsPseudoUser();
    return second.putIdentity({ username: 'anon1' }, 'secret2');
  }, 'USER_ALREADY_EXISTS', { v: 3 });
  await check.step('putIdentity with an email while email verification is on: pending until verified', async () => {
    const settings = await check.control('PATCH', `settings?app=${APP}`, { email_verification: true });
    expect(settings.status === 200, `PATCH settings: ${settings.text}`);
    try {
      const pseudo = await KiiUser.registerAsPseudoUser();
      const before = (await outbox('emails')).length;
      await pseudo.putIdentity({ username: 'anon2', emailAddress: 'anon2@example.com' }, 'secret2');
      const emails = (await outbox('emails')).slice(before);
      expect(emails.length === 1 && emails[0].to === 'anon2@example.com' && emails[0].code, `one verification email, got ${JSON.stringify(emails)}`);
      await KiiUser.authenticate('anon2@example.com', 'secret2').then(
        () => { throw new Error('a login with the unverified email succeeded'); },
        (e) => expect(String(e.message).includes('invalid_grant'), `wanted invalid_grant, got ${e.message}`));
      await KiiUser.authenticate('anon2', 'secret2');
    } finally {
      await check.control('PATCH', `settings?app=${APP}`, { email_verification: false });
    }
  }, { v: 3 });
  await check.step('delete a pseudo user: its token ends (WRONG_TOKEN)', async () => {
    const pseudo = await KiiUser.registerAsPseudoUser();
    await pseudo.delete();
    await pseudo.refresh().then(() => { throw new Error('refresh after delete succeeded'); },
      (e) => expect(String(e.message).includes('WRONG_TOKEN'), `wanted WRONG_TOKEN, got ${e.message}`));
  }, { v: 3 });
}

async function version3Topics() {
  // The subscriber: a user with an Android (GCM, production) and an iOS (APNS, development) installation.
  let member, gcm, apns;
  await check.step('a second user with an Android (production) and an iOS (development) installation', async () => {
    await KiiUser.userWithUsername('member', 'secret1').register();
    member = await KiiUser.authenticate('member', 'secret1');
    gcm = (await member.pushInstallation().installGcm('fcm-member', false)).installationID;
    apns = (await member.pushInstallation().installApns('apns-member', true)).installationID;
  });

  // App-scope topics are the app administrator's. With no user logged in the SDK sends only the app's
  // x-kii-appid / x-kii-appkey headers: anonymous, as on the live service. The administrator's token comes from
  // Kii.authenticateAsAppAdmin (client credentials; the emulator takes the app id and key as client id and secret).
  KiiUser.logOut();
  await check.fails('Kii.topicWithName("news").save() with only the app\'s headers (anonymous)', () => Kii.topicWithName('news').save(), 'UNAUTHORIZED', { v: 3 });
  let admin;
  await check.step('Kii.authenticateAsAppAdmin (client id and secret: the app id and key)', async () => {
    admin = await Kii.authenticateAsAppAdmin(APP, 'understudy-kii-key');
    expect(admin && typeof admin.getAccessToken() === 'string', 'an admin token');
  }, { v: 3 });
  const adminTopic = (name) => (admin ? admin.topicWithName(name) : Kii.topicWithName(name));
  await check.step('admin.topicWithName("news").save()', () => adminTopic('news').save(), { v: 3 });
  await check.fails('save it again', () => adminTopic('news').save(), 'TOPIC_ALREADY_EXISTS', { v: 3 });
  await check.fails('save a topic whose id has a "."', () => adminTopic('bad.id').save(), 'INVALID_INPUT_DATA', { v: 3 });
  await check.step('topic.exists(): true, and false for an unknown topic', async () => {
    expectEqual([await adminTopic('news').exists(), await adminTopic('nothing').exists()], [true, false], 'exists');
  }, { v: 3 });
  await check.step('admin.listTopics()', async () => {
    const [topics] = await admin.listTopics();
    expectEqual(topics.map(t => t.getName()), ['news'], 'topics');
  }, { v: 3 });

  await KiiUser.authenticate('member', 'secret1').catch(() => null);
  member = KiiUser.getCurrentUser() || member;
  const appTopic = () => Kii.topicWithName('news');
  await check.step('Kii.listTopics() with a user\'s token', async () => {
    const [topics] = await Kii.listTopics();
    expectEqual(topics.map(t => t.getName()), ['news'], 'topics');
  }, { v: 3 });
  await check.fails('an app-scope topic cannot be created with a user\'s token', () => Kii.topicWithName('mine').save(), 'UNAUTHORIZED', { v: 3 });
  await check.step('pushSubscription().subscribe(app topic)', () => member.pushSubscription().subscribe(appTopic()), { v: 3 });
  await check.step('pushSubscription().isSubscribed: true', async () => {
    const [, , subscribed] = await member.pushSubscription().isSubscribed(appTopic());
    expectEqual(subscribed, true, 'isSubscribed');
  }, { v: 3 });
  await check.fails('subscribe again', () => member.pushSubscription().subscribe(appTopic()), 'PUSH_SUBSCRIPTION_ALREADY_EXISTS', { v: 3 });
  await check.fails('a user cannot send to an app-scope topic', () => appTopic().sendMessage(new KiiPushMessageBuilder({ msg: 'hi' }).build()), 'UNAUTHORIZED', { v: 3 });

  // A user-scope topic: its owner creates it, subscribes and sends.
  const diary = () => member.topicWithName('diary');
  await check.step('user.topicWithName("diary").save()', () => diary().save(), { v: 3 });
  await check.step('user.listTopics()', async () => {
    const [topics] = await member.listTopics();
    expectEqual(topics.map(t => t.getName()), ['diary'], 'topics');
  }, { v: 3 });
  await check.step('topic.sendMessage on the user\'s own topic: every installation of the subscriber', async () => {
    await member.pushSubscription().subscribe(diary());
    const before = (await outbox('pushes')).length;
    await diary().sendMessage(new KiiPushMessageBuilder({ msg: 'dear diary' }).build());
    const pushes = (await outbox('pushes')).slice(before);
    expectEqual(installationsOf(pushes), [apns, gcm].sort(), 'installations pushed');
    expect(pushes.every(p => p.topic === 'diary' && p.data && p.data.msg === 'dear diary' && p.pushMessageID),
      `pushes carry topic, data and pushMessageID: ${JSON.stringify(pushes)}`);
  }, { v: 3 });
  await check.step('sendMessage with only GCM enabled: the Android installation', async () => {
    const before = (await outbox('pushes')).length;
    const builder = new KiiPushMessageBuilder({ msg: 'android' }).enableApns(false).enableJpush(false).enableMqtt(false);
    await diary().sendMessage(builder.build());
    expectEqual(installationsOf((await outbox('pushes')).slice(before)), [gcm], 'installations pushed');
  }, { v: 3 });
  await check.step('sendMessage to development only: the development (iOS) installation', async () => {
    const before = (await outbox('pushes')).length;
    await diary().sendMessage(new KiiPushMessageBuilder({ msg: 'dev' }).setSendToProduction(false).build());
    expectEqual(installationsOf((await outbox('pushes')).slice(before)), [apns], 'installations pushed');
  }, { v: 3 });
  await check.fails('sendMessage with data over 2048 bytes while APNs is enabled', () =>
    diary().sendMessage(new KiiPushMessageBuilder({ big: 'x'.repeat(2100) }).build()), 'INVALID_INPUT_DATA', { v: 3 });
  await check.fails('sendMessage with a nested value in data', () => diary().sendMessage(new KiiPushMessageBuilder({ nested: { a: '1' } }).build()), 'INVALID_INPUT_DATA', { v: 3 });
  await check.step('another user cannot subscribe to a user-scope topic, and is not subscribed', async () => {
    await KiiUser.userWithUsername('stranger', 'secret1').register();
    const stranger = await KiiUser.authenticate('stranger', 'secret1');
    const othersTopic = member.topicWithName('diary');
    await stranger.pushSubscription().subscribe(othersTopic).then(
      () => { throw new Error('the subscription succeeded'); },
      (e) => expect(String(e.message).includes('UNAUTHORIZED'), `wanted UNAUTHORIZED, got ${e.message}`));
    const [, , subscribed] = await stranger.pushSubscription().isSubscribed(othersTopic);
    expectEqual(subscribed, false, 'isSubscribed');
  }, { v: 3 });
  await KiiUser.authenticate('member', 'secret1').catch(() => null);
  member = KiiUser.getCurrentUser() || member;

  await check.step('topic.sendMessage on the app topic with the admin\'s token: the subscriber\'s installations', async () => {
    const before = (await outbox('pushes')).length;
    await adminTopic('news').sendMessage(new KiiPushMessageBuilder({ msg: 'breaking' }).build());
    const pushes = (await outbox('pushes')).slice(before);
    expectEqual(installationsOf(pushes), [apns, gcm].sort(), 'installations pushed');
  }, { v: 3 });
  await check.step('pushSubscription().unsubscribe, then isSubscribed: false', async () => {
    await member.pushSubscription().unsubscribe(appTopic());
    const [, , subscribed] = await member.pushSubscription().isSubscribed(appTopic());
    expectEqual(subscribed, false, 'isSubscribed');
  }, { v: 3 });
  await check.fails('unsubscribe again', () => member.pushSubscription().unsubscribe(appTopic()), 'PUSH_SUBSCRIPTION_NOT_FOUND', { v: 3 });
  await check.step('deleteTopic (user scope), then exists() is false', async () => {
    await diary().deleteTopic();
    expectEqual(await diary().exists(), false, 'exists');
  }, { v: 3 });
  await check.fails('deleteTopic again', () => diary().deleteTopic(), 'TOPIC_NOT_FOUND', { v: 3 });
  await check.step('deleteTopic (app scope) with the admin\'s token', async () => {
    await adminTopic('news').deleteTopic();
    const [topics] = await admin.listTopics();
    expectEqual(topics.map(t => t.getName()), [], 'topics left');
  }, { v: 3 });
}

// Contract version 4 (../shared/spec/v4.md): what a Kii app's other screens call.
async function version4() {
  const v4 = { v: 4 };
  KiiUser.logOut();
  let alice;
  await check.step('register with displayName, locale and custom fields: stored at sign-up', async () => {
    const user = KiiUser.userWithCredentials('alice4@mi6.co.uk', '+819012345674', 'alice4', 'secret1');
    user.setDisplayName('Alice');
    user.setLocale('en-GB');
    user.set('level', 9);
    user.set('team', 'blue');
    await user.register();
    alice = await KiiUser.authenticate('alice4', 'secret1');
    await alice.refresh();
    expectEqual([alice.getDisplayName(), alice.getLocale(), alice.get('level'), alice.get('team')], ['Alice', 'en-GB', 9, 'blue'],
      'displayName, locale, level, team read back');
  }, v4);
  let bob;
  await check.step('a second user logs in', async () => {
    await KiiUser.userWithUsername('bob4', 'secret1').register();
    bob = await KiiUser.authenticate('bob4', 'secret1');
  }, v4);
  if (!alice || !bob) return;
  const reduced = (user) => [user.getID(), user.getUsername(), user.getDisplayName(), user.getEmailAddress() || null, user.get('level') || null];
  const seenByOthers = [alice.getID(), 'alice4', 'Alice', null, null];
  await check.step('refresh of another user: userID, loginName and displayName only', async () => {
    const other = KiiUser.userWithID(alice.getID());
    await other.refresh();
    expectEqual(reduced(other), seenByOthers, 'the reduced record');
  }, v4);
  for (const [name, find, value] of [['Username', 'findUserByUsername', 'alice4'], ['Email', 'findUserByEmail', 'alice4@mi6.co.uk'],
    ['Phone', 'findUserByPhone', '+819012345674']]) {
    await check.step(`KiiUser.findUserBy${name} as a user: the reduced record`, async () => {
      expectEqual(reduced(await KiiUser[find](value)), seenByOthers, 'the reduced record');
    }, v4);
  }
  let admin;
  await check.step('Kii.authenticateAsAppAdmin', async () => {
    admin = await Kii.authenticateAsAppAdmin(APP, 'understudy-kii-key');
  }, v4);
  for (const [name, find, value] of [['Username', 'findUserByUsername', 'alice4'], ['Email', 'findUserByEmail', 'alice4@mi6.co.uk'],
    ['Phone', 'findUserByPhone', '+819012345674']]) {
    await check.step(`admin.findUserBy${name}: the full record`, async () => {
      const [, found] = await admin[find](value);
      expectEqual(reduced(found), [alice.getID(), 'alice4', 'Alice', 'alice4@mi6.co.uk', 9], 'the full record');
    }, v4);
  }
  await check.fails('KiiUser.findUserByEmail of an unknown address', () => KiiUser.findUserByEmail('nobody4@mi6.co.uk'), 'USER_NOT_FOUND', v4);
  await check.fails('KiiUser.authenticateWithTotp: no sign-in waits for a code', () => KiiUser.authenticateWithTotp('123456'), 'invalid_grant', v4);

  // The MQTT endpoint, and a topic message received by mqtt.js with its credentials.
  bob = await KiiUser.authenticate('bob4', 'secret1');
  let endpoint;
  await check.step('getMqttEndpoint: the credentials and where the broker listens', async () => {
    const installation = await bob.pushInstallation().installMqtt(false);
    endpoint = await bob.pushInstallation().getMqttEndpoint(installation.installationID);
    expectEqual([endpoint.username, endpoint.portTCP, endpoint.portWS, endpoint.portSSL, endpoint.portWSS, endpoint.host],
      [`${APP}/${installation.installationID}`, mqttPort, Number(port), 0, 0, '127.0.0.1'], 'username, ports, host');
    expect(/^[A-Za-z0-9]{32}$/.test(endpoint.password) && /^[A-Za-z0-9]{32}$/.test(endpoint.mqttTopic), 'password and mqttTopic');
  }, v4);
  const adminTopic = () => admin.topicWithName('alerts');
  await check.step('a topic the user subscribes to (admin.topicWithName("alerts"))', async () => {
    await adminTopic().save();
    await bob.pushSubscription().subscribe(Kii.topicWithName('alerts'));
  }, v4);
  for (const transport of ['ws', 'tcp']) {
    await check.step(`mqtt.js over ${transport === 'ws' ? 'WebSocket' : 'TCP'} with the endpoint's credentials receives the topic message`, async () => {
      if (!endpoint) throw new Error('no endpoint');
      const url = transport === 'ws' ? `ws://127.0.0.1:${endpoint.portWS}/mqtt` : `mqtt://127.0.0.1:${endpoint.portTCP}`;
      const payload = await receiveOne(url, endpoint, async () => {
        await adminTopic().sendMessage(new KiiPushMessageBuilder({ alert: `over ${transport}` }).build());
      });
      expectEqual([payload.alert, payload.topic, payload.objectScopeType], [`over ${transport}`, 'alerts', 'APP'], 'payload');
    }, v4);
  }
  await check.fails('mqtt.js with a wrong password is refused', () => receiveOne(`ws://127.0.0.1:${port}/mqtt`,
    { ...endpoint, password: 'wrong' + ((endpoint && endpoint.password) || '').slice(5) }, async () => {}), 'Bad username or password', v4);

  // Topic ACLs: the owner's user-scope topic, read and changed through topic.acl().
  bob = await KiiUser.authenticate('bob4', 'secret1');
  const diary = () => bob.topicWithName('diary4');
  const entriesOf = async () => {
    const [, entries] = await diary().acl().listACLEntries();
    return entries.map(e => `${e.getActionString()} ${e.getEntityString()}`).sort();
  };
  await check.step('topic.acl().listACLEntries(): a user-scope topic lists its owner for both actions', async () => {
    await diary().save();
    expectEqual(await entriesOf(), [`SEND_MESSAGE_TO_TOPIC UserID:${bob.getID()}`, `SUBSCRIBE_TO_TOPIC UserID:${bob.getID()}`], 'entries');
  }, v4);
  await check.step('topic.acl().putACLEntry + save: grant another user SUBSCRIBE and any user SEND', async () => {
    const acl = diary().acl();
    acl.putACLEntry(KiiACLEntry.entryWithSubject(KiiUser.userWithID(alice.getID()), KiiACLAction.KiiACLSubscribeToTopic));
    acl.putACLEntry(KiiACLEntry.entryWithSubject(new KiiAnyAuthenticatedUser(), KiiACLAction.KiiACLSendMessageToTopic));
    await acl.save();
    expectEqual(await entriesOf(), [`SEND_MESSAGE_TO_TOPIC UserID:${bob.getID()}`, 'SEND_MESSAGE_TO_TOPIC UserID:ANY_AUTHENTICATED_USER',
      `SUBSCRIBE_TO_TOPIC UserID:${alice.getID()}`, `SUBSCRIBE_TO_TOPIC UserID:${bob.getID()}`].sort(), 'entries');
  }, v4);
  await check.fails('granting an entry already there', async () => {
    const acl = diary().acl();
    acl.putACLEntry(KiiACLEntry.entryWithSubject(KiiUser.userWithID(alice.getID()), KiiACLAction.KiiACLSubscribeToTopic));
    await acl.save();
  }, 'ACL_ALREADY_EXISTS', v4);
  await check.step('the granted user subscribes to the owner\'s topic and sends to it', async () => {
    const asAlice = await KiiUser.authenticate('alice4', 'secret1');
    const topic = KiiUser.userWithID(bob.getID()).topicWithName('diary4');
    await asAlice.pushSubscription().subscribe(topic);
    await topic.sendMessage(new KiiPushMessageBuilder({ note: 'hello' }).build());
  }, v4);
  await check.step('revoking (an entry with grant false, saved): the user is refused', async () => {
    bob = await KiiUser.authenticate('bob4', 'secret1');
    const acl = diary().acl();
    const entry = KiiACLEntry.entryWithSubject(new KiiAnyAuthenticatedUser(), KiiACLAction.KiiACLSendMessageToTopic);
    entry.setGrant(false);
    acl.putACLEntry(entry);
    await acl.save();
    await KiiUser.authenticate('alice4', 'secret1');
    await KiiUser.userWithID(bob.getID()).topicWithName('diary4').sendMessage(new KiiPushMessageBuilder({ note: 'again' }).build()).then(
      () => { throw new Error('the send succeeded'); },
      (e) => expect(String(e.message).includes('UNAUTHORIZED'), `wanted UNAUTHORIZED, got ${e.message}`));
  }, v4);
  await check.fails('another user cannot read the topic\'s ACL', () => KiiUser.userWithID(bob.getID()).topicWithName('diary4').acl().listACLEntries(), 'UNAUTHORIZED', v4);

  // Groups: made in the console (a Lua chunk), listed by the SDK.
  await check.step('memberOfGroups and ownerOfGroups', async () => {
    await check.lua(`local app = understudy.app("${APP}")
      app.groups.create{ name = "crew", owner = "${bob.getID()}", members = { "${alice.getID()}" } }
      app.groups.create{ name = "band", owner = "${alice.getID()}" }`);
    const asAlice = await KiiUser.authenticate('alice4', 'secret1');
    const [, member] = await asAlice.memberOfGroups();
    const [, owned] = await asAlice.ownerOfGroups();
    expectEqual([member.map(g => g.getName()), owned.map(g => g.getName())], [['crew', 'band'], ['band']], 'member of, owner of');
  }, v4);
  await check.fails('memberOfGroups of another user', () => KiiUser.userWithID(bob.getID()).memberOfGroups(), 'UNAUTHORIZED', v4);

  // KiiSocialConnect with a scripted provider account.
  await check.lua(`local app = understudy.app("${APP}")
    app.social.account{ provider = "facebook", token = "fb-token-4", profile = { id = "fb-4" } }
    app.social.account{ provider = "google", token = "g-token-4", profile = { id = "g-4" } }`);
  let social;
  await check.step('KiiSocialConnect.logIn(FACEBOOK): a new user, linked', async () => {
    const [user] = await KiiSocialConnect.logIn(KiiSocialNetworkName.FACEBOOK, { access_token: 'fb-token-4' });
    social = user;
    expectEqual([user.getLinkedSocialAccounts().facebook && user.getLinkedSocialAccounts().facebook.id, user.getUsername() || null],
      ['fb-4', null], 'linked account, username');
  }, v4);
  await check.step('KiiSocialConnect.logIn again: the same user', async () => {
    const [user] = await KiiSocialConnect.logIn(KiiSocialNetworkName.FACEBOOK, { access_token: 'fb-token-4' });
    expectEqual(user.getID(), social && social.getID(), 'userID');
  }, v4);
  await check.fails('KiiSocialConnect.logIn with a token no account has', () =>
    KiiSocialConnect.logIn(KiiSocialNetworkName.FACEBOOK, { access_token: 'nope' }), 'invalid_grant', v4);
  await check.step('linkCurrentUserWithNetwork(GOOGLEPLUS)', async () => {
    await KiiUser.authenticate('bob4', 'secret1');
    const [user] = await KiiSocialConnect.linkCurrentUserWithNetwork(KiiSocialNetworkName.GOOGLEPLUS, { access_token: 'g-token-4' });
    expectEqual(user.getLinkedSocialAccounts().google && user.getLinkedSocialAccounts().google.id, 'g-4', 'linked google id');
  }, v4);
  await check.fails('linkCurrentUserWithNetwork again', () =>
    KiiSocialConnect.linkCurrentUserWithNetwork(KiiSocialNetworkName.GOOGLEPLUS, { access_token: 'g-token-4' }), 'GOOGLE_USER_ALREADY_LINKED', v4);
  await check.step('KiiSocialConnect.logIn(GOOGLEPLUS) logs the linked user in', async () => {
    const [user] = await KiiSocialConnect.logIn(KiiSocialNetworkName.GOOGLEPLUS, { access_token: 'g-token-4' });
    expectEqual(user.getID(), bob.getID(), 'userID');
  }, v4);
  await check.step('unLinkCurrentUserFromNetwork(GOOGLEPLUS)', async () => {
    const [user] = await KiiSocialConnect.unLinkCurrentUserFromNetwork(KiiSocialNetworkName.GOOGLEPLUS);
    await user.refresh();
    expectEqual(user.getLinkedSocialAccounts().google || null, null, 'google unlinked');
  }, v4);
  await check.fails('unLinkCurrentUserFromNetwork again', () =>
    KiiSocialConnect.unLinkCurrentUserFromNetwork(KiiSocialNetworkName.GOOGLEPLUS), 'USER_NOT_LINKED', v4);
}

// Connects mqtt.js (Debian's node-mqtt) with the endpoint's credentials, subscribes to its topic, runs `send`, and
// resolves to the first message's JSON payload; rejects with the broker's refusal.
function receiveOne(url, endpoint, send) {
  const mqtt = require('mqtt');
  return new Promise((resolve, reject) => {
    const client = mqtt.connect(url, {
      clientId: endpoint.mqttTopic, username: endpoint.username, password: endpoint.password, protocolVersion: 4,
      reconnectPeriod: 0, connectTimeout: 5000,
    });
    const timer = setTimeout(() => { client.end(true); reject(new Error('no message within 10 s')); }, 10000);
    const fail = (e) => { clearTimeout(timer); client.end(true); reject(e); };
    client.on('error', fail);
    client.on('connect', () => client.subscribe(endpoint.mqttTopic, { qos: 0 }, (err) => {
      if (err) return fail(err);
      Promise.resolve(send()).catch(fail);
    }));
    client.on('message', (_, payload) => {
      clearTimeout(timer);
      client.end(true);
      try { resolve(JSON.parse(payload.toString('utf8'))); } catch (e) { reject(e); }
    });
  });
}
