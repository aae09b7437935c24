// The steps of scripts/backendless-js-sdk/check: the real Backendless JS SDK (v8, transpiled by the check) against
// `understudy serve` on the port given. Each step asserts what the live Backendless service answers, as the contract
// (docs/lua-api.md, ../shared/spec/v3.md) fixes it; steps tagged { v: 3 } need contract version 3.
//   node run.js PORT      (with the transpiled SDK reachable as require('backendless'))
const { Check, expect, expectEqual } = require('../lib/sdk-check');

const port = process.argv[2];
const check = new Check(port);
const Backendless = require('backendless');
const APP = 'UNDERSTUDY-APP';
const Users = () => Backendless.UserService;
const Messaging = () => Backendless.Messaging;
const UsersTable = () => Backendless.Data.of('Users');

// Pushes (or emails) that reached the outbox since `since` (an earlier outbox length).
async function newPushes(since) { return (await check.outbox('pushes', APP)).slice(since); }
async function pushCount() { return (await check.outbox('pushes', APP)).length; }
const devicesOf = (pushes) => pushes.map(p => p.device_id).sort();
async function settings(values) {
  const reply = await check.control('PATCH', `settings?app=${APP}`, values);
  expect(reply.status === 200, `PATCH settings ${JSON.stringify(values)}: ${reply.text}`);
}
async function serverNow() { return (await check.control('GET', `clock?app=${APP}`)).json.now; }
async function clockSet(seconds) {
  const reply = await check.control('POST', `clock/set?app=${APP}`, { now: seconds });
  expect(reply.status === 200, `clock/set: ${reply.text}`);
}
async function clockAdvance(seconds) {
  const reply = await check.control('POST', `clock/advance?app=${APP}`, { seconds });
  expect(reply.status === 200, `clock/advance: ${reply.text}`);
}
const delivery = (args) => new Backendless.Messaging.DeliveryOptions(args);
const publishOptions = (args) => new Backendless.Messaging.PublishOptions(args);
const bodyparts = (args) => new Backendless.Messaging.Bodyparts(args);
function setupDevice(uuid, platform) { Backendless.setupDevice({ uuid, platform, version: platform === 'ios' ? '17.4' : '14' }); }
// What the live service answers to every accepted publish (v3.md): the real status comes from getMessageStatus.
function expectAccepted(reply) {
  expect(reply && typeof reply.messageId === 'string' && reply.messageId.startsWith('message:'), `messageId like message:…, got ${JSON.stringify(reply)}`);
  expectEqual(reply.status, 'scheduled', 'publish reply status');
  expectEqual(reply.errorMessage, null, 'publish reply errorMessage');
}

(async () => {
  try {
    await versions1and2();
    await version3Pushes();
    await version3Templates();
    await version3Email();
    await version3OAuth();
  } catch (e) {
    console.log('FAIL exception', e && (e.stack || e.message || e));
    process.exitCode = 1;
  }
  check.summary();
})();

let alice, bob, carol;

async function versions1and2() {
  await check.step('initApp (GET info answers the app info)', async () => {
    Backendless.serverURL = `http://127.0.0.1:${port}`;
    Backendless.initApp(APP, 'UNDERSTUDY-REST-KEY');
    const info = await Backendless.appInfoPromise();
    expect(info && Array.isArray(info.loggers), `info: ${JSON.stringify(info)}`);
  });
  alice = await check.step('register', async () => {
    const user = await Users().register({ email: 'alice@example.com', password: 'wonderland', name: 'Alice' });
    expectEqual([user.email, user.userStatus, user.socialAccount], ['alice@example.com', 'ENABLED', 'BACKENDLESS'], 'user');
    expect(user instanceof Backendless.User, 'the SDK parses the reply as a Backendless.User');
    return user;
  });
  await check.fails('register the same email again (other case)', () => Users().register({ email: 'Alice@Example.com', password: 'other' }), 3033);
  bob = await check.step('register a second user', () => Users().register({ email: 'bob@example.com', password: 'builder' }));
  await check.fails('login with a wrong password', () => Users().login('alice@example.com', 'wrong'), 3003);
  await check.step('login', async () => {
    const user = await Users().login('alice@example.com', 'wonderland');
    expect(typeof user['user-token'] === 'string', 'user-token in the reply');
    expectEqual(user.objectId, alice.objectId, 'objectId');
  });
  await check.step('getCurrentUser', async () => expectEqual((await Users().getCurrentUser()).objectId, alice.objectId, 'current user'));
  await check.step('getCurrentUser(reload) (GET data/Users/{id})', async () => {
    const user = await Users().getCurrentUser(true);
    expectEqual([user.objectId, user.name], [alice.objectId, 'Alice'], 'reloaded user');
  });
  await check.step('isValidLogin', async () => expectEqual(await Users().isValidLogin(), true, 'isValidLogin'));
  await check.step('update (the SDK sends the whole user)', async () => {
    const current = await Users().getCurrentUser();
    current.name = 'Ally'; current.score = 7;
    const user = await Users().update(current);
    expectEqual([user.name, user.score, user.email], ['Ally', 7, 'alice@example.com'], 'updated user');
  });
  await check.fails('update another user\'s object', () => Users().update({ objectId: bob.objectId, name: 'Robert' }), 3029);
  await check.step('getUserRoles', async () => expectEqual(await Users().getUserRoles(), ['AuthenticatedUser', 'RestUser'], 'roles'));
  await check.step('describeUserClass', async () => {
    const columns = await Users().describeUserClass();
    const email = columns.find(c => c.name === 'email');
    expect(email && email.identity === true, `an identity column "email" in ${JSON.stringify(columns).slice(0, 200)}`);
  });
  await check.fails('verifyPassword (only CloudCode may)', () => Users().verifyPassword('wonderland'), 3122);
  await check.step('Data.of(Users).findById', async () => expectEqual((await UsersTable().findById(bob.objectId)).email, 'bob@example.com', 'email'));
  await check.fails('findById of an unknown id', () => UsersTable().findById('00000000-0000-0000-0000-000000000000'), 1000);
  await check.step('restorePassword (a recovery email in the outbox)', async () => {
    const before = (await check.outbox('emails', APP)).length;
    await Users().restorePassword('alice@example.com');
    const emails = (await check.outbox('emails', APP)).slice(before);
    expectEqual(emails.map(e => [e.to, e.kind]), [['alice@example.com', 'password_recovery']], 'emails');
  });
  await check.fails('restorePassword of an unknown identity', () => Users().restorePassword('nobody@example.com'), 3020);
  await check.fails('resendEmailConfirmation with confirmation off', () => Users().resendEmailConfirmation('alice@example.com'), 3103);
  await check.step('logout', async () => {
    await Users().logout();
    expectEqual([await Users().isValidLogin(), await Users().getCurrentUser()], [false, null], 'isValidLogin, current user');
  });
  await check.step('loginAsGuest, then register converts the guest', async () => {
    const guest = await Users().loginAsGuest();
    expectEqual(guest.userStatus, 'GUEST', 'guest status');
    const user = await Users().register({ objectId: guest.objectId, email: 'gus@example.com', password: 'guestpass' });
    expectEqual([user.objectId, user.userStatus], [guest.objectId, 'ENABLED'], 'converted guest');
    await Users().logout();
  });
  carol = await check.step('register with email confirmation on', async () => {
    await settings({ email_confirmation: true });
    const user = await Users().register({ email: 'carol@example.com', password: 'carolpass' });
    expectEqual(user.userStatus, 'EMAIL_CONFIRMATION_PENDING', 'status');
    return user;
  });
  await check.fails('login before confirming', () => Users().login('carol@example.com', 'carolpass'), 3087);
  await check.step('resendEmailConfirmation', async () => {
    const before = (await check.outbox('emails', APP)).length;
    await Users().resendEmailConfirmation('carol@example.com');
    const emails = (await check.outbox('emails', APP)).slice(before);
    expect(emails.length === 1 && emails[0].to === 'carol@example.com' && emails[0].link, `one confirmation email to carol, got ${JSON.stringify(emails)}`);
  });
  await check.fails('resendEmailConfirmation of an unknown identity', () => Users().resendEmailConfirmation('nobody@example.com'), 3104);
  await check.step('createEmailConfirmationURL, open the link, login', async () => {
    const reply = await Users().createEmailConfirmationURL('carol@example.com');
    expect(reply && typeof reply.confirmationURL === 'string', `confirmationURL, got ${JSON.stringify(reply)}`);
    const page = await Backendless.Request.get(reply.confirmationURL);
    expectEqual(page.userStatus, 'ENABLED', 'status after the link');
    const user = await Users().login('carol@example.com', 'carolpass');
    expectEqual(user.objectId, carol.objectId, 'carol logs in');
    await Users().logout();
  });
  await check.fails('resendEmailConfirmation once confirmed', () => Users().resendEmailConfirmation('carol@example.com'), 3102);
  await settings({ email_confirmation: false });
  await check.step('Data.of(Users).remove, then the login fails', async () => {
    const reply = await UsersTable().remove(bob.objectId);
    expect(reply && typeof reply.deletionTime === 'number', `deletionTime, got ${JSON.stringify(reply)}`);
    await Users().login('bob@example.com', 'builder').then(
      () => { throw new Error('login after remove succeeded'); },
      (e) => expectEqual(e.code, 3003, 'login after remove'));
  });
  await check.step('registerDevice (IOS, setupDevice)', async () => {
    setupDevice('ios-1', 'ios');
    const reply = await Messaging().registerDevice('apns-token-1', ['news']);
    expect(/::news$/.test(reply.registrationId), `registrationId id::news, got ${JSON.stringify(reply)}`);
  });
  await check.step('registerDevice (ANDROID)', async () => {
    setupDevice('android-1', 'android');
    const reply = await Messaging().registerDevice('fcm-token-1', ['news']);
    expect(/::news$/.test(reply.registrationId), `registrationId id::news, got ${JSON.stringify(reply)}`);
  });
  await check.step('getRegistrations', async () => {
    const list = await Messaging().getRegistrations();
    expectEqual(list.map(d => [d.deviceId, d.os, d.deviceToken, d.channels]), [['android-1', 'ANDROID', 'fcm-token-1', ['news']]], 'registrations');
  });
  const published = await check.step('publish (both devices get it)', async () => {
    const before = await pushCount();
    const reply = await Messaging().publish('news', 'hello');
    expect(reply && typeof reply.messageId === 'string', `messageId, got ${JSON.stringify(reply)}`);
    expectEqual(devicesOf(await newPushes(before)), ['android-1', 'ios-1'], 'devices pushed');
    return reply;
  });
  await check.step('getMessageStatus', async () => {
    const reply = await Messaging().getMessageStatus(published.messageId);
    expectEqual([reply.status, reply.messageId], ['published', published.messageId], 'status');
  });
  await check.step('publish with pushSinglecast', async () => {
    const before = await pushCount();
    await Messaging().publish('news', 'only you', null, delivery({ pushSinglecast: ['ios-1'] }));
    expectEqual(devicesOf(await newPushes(before)), ['ios-1'], 'devices pushed');
  });
  await check.step('unregisterDevice', async () => {
    setupDevice('android-1', 'android');
    await Messaging().unregisterDevice();
  });
  await check.fails('getRegistrations of an unregistered device', () => Messaging().getRegistrations(), 5000);
  await check.fails('unregisterDevice again', () => Messaging().unregisterDevice(), 5001);
}

// Contract version 3: DeliveryOptions, scheduled and repeating messages, status and cancel.
async function version3Pushes() {
  const day = () => new Date(Date.now() + 86400e3);
  await check.step('serve\'s clock starts at the real time (fine point 15)', async () => {
    const now = await serverNow();
    expect(Math.abs(now - Date.now() / 1000) < 600, `clock ${now} is not near the real time ${Date.now() / 1000}`);
  }, { v: 3 });
  await check.step('registerDevice with an expiration a day from the app\'s clock', async () => {
    setupDevice('ios-1', 'ios');
    const expires = day();
    await Messaging().registerDevice('apns-token-1', ['news'], expires);
    setupDevice('android-1', 'android');
    await Messaging().registerDevice('fcm-token-1', ['news'], expires);
    const list = await Messaging().getRegistrations();
    expect(list.length === 1 && Math.abs(list[0].expiration - expires.getTime()) < 1000,
      `expiration ${expires.getTime()} ms, got ${JSON.stringify(list)}`);
  }, { v: 3 });
  const broadcast = async (label, pushBroadcast, want) => check.step(label, async () => {
    const before = await pushCount();
    const reply = await Messaging().publish('news', `to ${pushBroadcast}`, null, delivery({ pushBroadcast }));
    expectAccepted(reply);
    expectEqual(devicesOf(await newPushes(before)), want, 'devices pushed');
    expectEqual((await Messaging().getMessageStatus(reply.messageId)).status, 'published', 'getMessageStatus');
  }, { v: 3 });
  await broadcast('publish pushBroadcast 1 (IOS mask): iOS only, reply "scheduled", status published', 1, ['ios-1']);
  await broadcast('publish pushBroadcast "FOR_ANDROID"', 'FOR_ANDROID', ['android-1']);
  await broadcast('publish pushBroadcast "IOS|ANDROID" (fine point 14)', 'IOS|ANDROID', ['android-1', 'ios-1']);
  await broadcast('publish pushBroadcast "FOR_NONE": nobody, still published', 'FOR_NONE', []);
  await broadcast('publish pushBroadcast 12 (WP|OSX): nobody', 12, []);
  await check.step('publish pushSinglecast with headers: the push carries headers and messageId', async () => {
    const before = await pushCount();
    const headers = { 'android-content-title': 'Title', 'ios-alert': 'Alert' };
    const reply = await Messaging().publish('news', 'single', publishOptions({ headers }),
      delivery({ pushSinglecast: ['android-1'] }));
    expectAccepted(reply);
    const pushes = await newPushes(before);
    expectEqual(pushes.map(p => [p.device_id, p.message, p.headers, p.messageId]), [['android-1', 'single', headers, reply.messageId]], 'pushes');
  }, { v: 3 });
  await check.step('publish publishPolicy PUBSUB: no device, status published', async () => {
    const before = await pushCount();
    const reply = await Messaging().publish('news', 'pubsub', null, delivery({ publishPolicy: 'PUBSUB' }));
    expectAccepted(reply);
    expectEqual(devicesOf(await newPushes(before)), [], 'devices pushed');
    expectEqual((await Messaging().getMessageStatus(reply.messageId)).status, 'published', 'status');
  }, { v: 3 });

  // publishAt an hour ahead of the app's own clock.
  const publishAt = Date.now() + 3600e3;
  let scheduled;
  const before = await pushCount();
  await check.step('publish publishAt (an hour ahead): scheduled, nothing delivered', async () => {
    scheduled = await Messaging().publish('news', 'later', null, delivery({ publishAt }));
    expectAccepted(scheduled);
    expectEqual((await Messaging().getMessageStatus(scheduled.messageId)).status, 'scheduled', 'status');
    expectEqual(devicesOf(await newPushes(before)), [], 'devices pushed');
  }, { v: 3 });
  await check.step('publishAt: a second before the time, still scheduled', async () => {
    await clockSet(publishAt / 1000 - 1);
    expectEqual((await Messaging().getMessageStatus(scheduled.messageId)).status, 'scheduled', 'status');
    expectEqual(devicesOf(await newPushes(before)), [], 'devices pushed');
  }, { v: 3 });
  await check.step('publishAt: delivered when the clock reaches it, then published', async () => {
    await clockSet(publishAt / 1000);
    const pushes = await newPushes(before);
    expectEqual(devicesOf(pushes), ['android-1', 'ios-1'], 'devices pushed');
    expect(pushes.every(p => p.messageId === scheduled.messageId && p.message === 'later'), `pushes ${JSON.stringify(pushes)}`);
    expectEqual((await Messaging().getMessageStatus(scheduled.messageId)).status, 'published', 'status');
  }, { v: 3 });
  await check.fails('publishAt in the past', () => Messaging().publish('news', 'past', null,
    delivery({ publishAt: Date.now() - 60e3 })), 5030, { v: 3 });

  // A repeating message, cancelled after two firings. Times from the server's clock, which the check moved.
  let repeating;
  let start;
  const beforeRepeat = await pushCount();
  await check.step('publish repeatEvery 60 s from publishAt: scheduled', async () => {
    start = await serverNow();
    repeating = await Messaging().publish('news', 'tick', null, delivery({
      publishAt: (start + 60) * 1000, repeatEvery: 60, repeatExpiresAt: (start + 240) * 1000 }));
    expectAccepted(repeating);
    expectEqual((await Messaging().getMessageStatus(repeating.messageId)).status, 'scheduled', 'status');
  }, { v: 3 });
  await check.step('repeatEvery: two firings in one 130 s clock move, one messageId', async () => {
    await clockAdvance(130);
    const pushes = await newPushes(beforeRepeat);
    expectEqual(devicesOf(pushes), ['android-1', 'android-1', 'ios-1', 'ios-1'], 'devices pushed');
    expect(pushes.every(p => p.messageId === repeating.messageId), 'one messageId for every firing');
    expectEqual((await Messaging().getMessageStatus(repeating.messageId)).status, 'scheduled', 'status');
  }, { v: 3 });
  await check.step('cancel: status cancelled, no more firings', async () => {
    const reply = await Messaging().cancel(repeating.messageId);
    expectEqual([reply.status, reply.messageId], ['cancelled', repeating.messageId], 'cancel reply');
    expectEqual((await Messaging().getMessageStatus(repeating.messageId)).status, 'cancelled', 'status');
    await clockAdvance(300);
    expectEqual((await newPushes(beforeRepeat)).length, 4, 'pushes after the cancel');
  }, { v: 3 });
  await check.fails('cancel again', () => Messaging().cancel(repeating.messageId), 5040, { v: 3 });
  await check.fails('cancel an id never issued', () => Messaging().cancel('message:never-issued'), 5040, { v: 3 });
  await check.step('getMessageStatus of an id never issued: unknown', async () => {
    const reply = await Messaging().getMessageStatus('message:never-issued');
    expectEqual([reply.status, reply.errorMessage], ['unknown', null], 'status');
  }, { v: 3 });
  await check.step('repeatEvery with no publishAt: fires now, then until repeatExpiresAt; published at the end', async () => {
    const now = await serverNow();
    const mark = await pushCount();
    const reply = await Messaging().publish('news', 'now and again', null,
      delivery({ repeatEvery: 60, repeatExpiresAt: (now + 120) * 1000 }));
    expectAccepted(reply);
    expectEqual((await newPushes(mark)).length, 2, 'pushes of the first firing');
    expectEqual((await Messaging().getMessageStatus(reply.messageId)).status, 'scheduled', 'status');
    await clockAdvance(120);
    expectEqual((await newPushes(mark)).length, 6, 'pushes after three firings');
    expectEqual((await Messaging().getMessageStatus(reply.messageId)).status, 'published', 'status after the last firing');
    await Messaging().cancel(reply.messageId).then(() => { throw new Error('cancel after the last firing succeeded'); },
      (e) => expectEqual(e.code, 5040, 'cancel after the last firing'));
  }, { v: 3 });
  await check.fails('repeatEvery without repeatExpiresAt', () => Messaging().publish('news', 'x', null,
    delivery({ repeatEvery: 60 })), 5003, { v: 3 });
  await check.fails('repeatExpiresAt before the first firing', async () => {
    const now = await serverNow();
    return Messaging().publish('news', 'x', null, delivery({
      publishAt: (now + 600) * 1000, repeatEvery: 60, repeatExpiresAt: (now + 300) * 1000 }));
  }, 5003, { v: 3 });
  await check.fails('publishAt in the past is checked before repeatExpiresAt (5030, not 5003)', async () => {
    const now = await serverNow();
    return Messaging().publish('news', 'x', null, delivery({
      publishAt: (now - 60) * 1000, repeatEvery: 60, repeatExpiresAt: (now - 120) * 1000 }));
  }, 5030, { v: 3 });

  // Recipients are resolved at each firing (fine point 3): a device that expires before a firing misses it, one
  // registered after the message was scheduled gets its later firings.
  await check.step('recipients at each firing: an expired device misses it, a device registered later gets it', async () => {
    const now = await serverNow();
    setupDevice('ios-short', 'ios');
    await Messaging().registerDevice('apns-token-short', ['flash'], new Date((now + 90) * 1000));
    const mark = await pushCount();
    const reply = await Messaging().publish('flash', 'flash', null, delivery({
      publishAt: (now + 60) * 1000, repeatEvery: 60, repeatExpiresAt: (now + 120) * 1000 }));
    expectAccepted(reply);
    await clockAdvance(60);
    expectEqual(devicesOf(await newPushes(mark)), ['ios-short'], 'devices of the first firing');
    setupDevice('android-late', 'android');
    await Messaging().registerDevice('fcm-token-late', ['flash'], new Date((now + 86400) * 1000));
    await clockAdvance(60);
    expectEqual(devicesOf(await newPushes(mark)), ['android-late', 'ios-short'], 'devices after the second firing');
    expectEqual((await Messaging().getMessageStatus(reply.messageId)).status, 'published', 'status after the last firing');
  }, { v: 3 });
}

async function version3Templates() {
  await check.step('define push templates (control Lua: app.push.templates.define)', async () => {
    await check.lua(`
      local app = understudy.app("${APP}")
      app.push.templates.define{ name = "welcome", message = "Hi {name}", title = "Welcome {name}", os = "IOS",
                                 channel = "news", headers = { ["ios-badge"] = "{count}" } }
      app.push.templates.define{ name = "promo", message = "Sale!", channel = "news" }
      app.push.templates.define{ name = "droid", message = "Android only", os = "ANDROID", channel = "news" }
      return true`);
  }, { v: 3 });
  await check.step('getPushTemplates("ios"): the IOS and ALL templates', async () => {
    const templates = await Messaging().getPushTemplates('ios');
    expectEqual(Object.keys(templates).sort(), ['promo', 'welcome'], 'template names');
    expectEqual([templates.welcome.message, templates.welcome.title], ['Hi {name}', 'Welcome {name}'], 'welcome');
  }, { v: 3 });
  await check.step('getPushTemplates("ANDROID")', async () => {
    expectEqual(Object.keys(await Messaging().getPushTemplates('ANDROID')).sort(), ['droid', 'promo'], 'template names');
  }, { v: 3 });
  await check.step('pushWithTemplate with values: iOS only, filled message, title and headers', async () => {
    const before = await pushCount();
    const reply = await Messaging().pushWithTemplate('welcome', { name: 'Ann', count: '3' });
    expectAccepted(reply);
    const pushes = await newPushes(before);
    expectEqual(pushes.map(p => [p.device_id, p.message, p.title, p.template, p.headers && p.headers['ios-badge'], p.messageId]),
      [['ios-1', 'Hi Ann', 'Welcome Ann', 'welcome', '3', reply.messageId]], 'pushes');
  }, { v: 3 });
  await check.step('pushWithTemplate with no values: placeholders stay as written', async () => {
    const before = await pushCount();
    expectAccepted(await Messaging().pushWithTemplate('welcome'));
    expectEqual((await newPushes(before)).map(p => p.message), ['Hi {name}'], 'messages');
  }, { v: 3 });
  await check.fails('pushWithTemplate of an unknown template', () => Messaging().pushWithTemplate('nope'), 24002, { v: 3 });
}

async function version3Email() {
  await check.step('sendEmail: one custom email per recipient', async () => {
    const before = (await check.outbox('emails', APP)).length;
    const reply = await Messaging().sendEmail('Your order', bodyparts({ textmessage: 'Shipped.' }),
      ['ann@example.com', 'ben@example.com']);
    expectAccepted(reply);
    const emails = (await check.outbox('emails', APP)).slice(before);
    expectEqual(emails.map(e => [e.to, e.kind, e.subject]).sort(),
      [['ann@example.com', 'custom', 'Your order'], ['ben@example.com', 'custom', 'Your order']], 'emails');
  }, { v: 3 });
}

async function version3OAuth() {
  await check.step('define provider accounts (control Lua: app.oauth.account)', async () => {
    await check.lua(`
      local app = understudy.app("${APP}")
      app.oauth.account{ provider = "googleplus", token = "g-token", profile = { id = "g-1", email = "gina@gmail.com", name = "Gina", locale = "it" } }
      app.oauth.account{ provider = "facebook", token = "fb-token", profile = { id = "fb-1", email = "fred@fb.example" } }
      app.oauth.account{ provider = "twitter", token = "tw-token", secret = "tw-secret", profile = { id = "tw-1", name = "Tweety" } }
      app.oauth.account{ provider = "github", token = "gh-token", profile = { id = "gh-1", email = "alice@example.com" } }
      return true`);
  }, { v: 3 });
  let gina;
  await check.step('loginWithOauth2: the first login registers a social user', async () => {
    gina = await Users().loginWithOauth2('googleplus', 'g-token', { email: 'email', name: 'name' });
    expect(typeof gina['user-token'] === 'string', 'user-token in the reply');
    expectEqual([gina.email, gina.name, gina.locale, gina.socialAccount, gina.userStatus],
      ['gina@gmail.com', 'Gina', undefined, 'googleplus', 'ENABLED'], 'user (only mapped fields)');
    expectEqual((await Users().getCurrentUser()).objectId, gina.objectId, 'current user');
  }, { v: 3 });
  await check.step('loginWithOauth2 again: the same user, mapped fields not refreshed', async () => {
    await check.lua(`understudy.app("${APP}").oauth.account{ provider = "googleplus", token = "g-token", profile = { id = "g-1", email = "gina@gmail.com", name = "Regina" } } return true`);
    const again = await Users().loginWithOauth2('googleplus', 'g-token', { email: 'email', name: 'name' });
    expectEqual([again.objectId, again.name], [gina && gina.objectId, 'Gina'], 'user');
  }, { v: 3 });
  await check.fails('update a social user\'s password', async () => {
    const user = await Users().getCurrentUser();
    return Users().update({ ...user, password: 'secret' });
  }, 3072, { v: 3 });
  await check.fails('update a social user\'s identity', async () => {
    const user = await Users().getCurrentUser();
    return Users().update({ ...user, email: 'other@gmail.com' });
  }, 3096, { v: 3 });
  await check.fails('restorePassword of a social user', () => Users().restorePassword('gina@gmail.com'), 3075, { v: 3 });
  await check.fails('login of a social user with a password', () => Users().login('gina@gmail.com', 'anything'), 3003, { v: 3 });
  await check.fails('loginWithOauth2 with a token the provider does not know', () => Users().loginWithOauth2('googleplus', 'stolen', { email: 'email' }), 3052, { v: 3 });
  await check.step('loginWithOauth2 with a guest user: the guest becomes the social user', async () => {
    const guest = await Users().loginAsGuest();
    const user = await Users().loginWithOauth2('facebook', 'fb-token', guest, { email: 'email' });
    expectEqual([user.objectId, user.email, user.socialAccount, user.userStatus], [guest.objectId, 'fred@fb.example', 'facebook', 'ENABLED'], 'user');
  }, { v: 3 });
  await check.step('loginWithOauth1 (token and secret)', async () => {
    const user = await Users().loginWithOauth1('twitter', 'tw-token', 'tw-secret', { name: 'name' });
    expectEqual([user.name, user.socialAccount, typeof user['user-token']], ['Tweety', 'twitter', 'string'], 'user');
  }, { v: 3 });
  await check.fails('loginWithOauth1 with a wrong secret', () => Users().loginWithOauth1('twitter', 'tw-token', 'wrong', { name: 'name' }), 3052, { v: 3 });
  await check.step('first loginWithOauth2 whose mapped email is taken: 3014 wrapping 3033\'s message', async () => {
    await Users().loginWithOauth2('github', 'gh-token', { email: 'email' }).then(
      () => { throw new Error('it succeeded'); },
      (e) => expectEqual([e.code, e.message], [3014, 'Unable to register user. External registration failed with message: Unable to register user. User already exists.'], 'error'));
  }, { v: 3 });
  await check.step('loginWithOauth2 while logins are off: 3034', async () => {
    await settings({ logins: false });
    try {
      await Users().loginWithOauth2('googleplus', 'g-token', { email: 'email' }).then(
        () => { throw new Error('it succeeded'); }, (e) => expectEqual(e.code, 3034, 'code'));
    } finally { await settings({ logins: true }); }
  }, { v: 3 });
}
