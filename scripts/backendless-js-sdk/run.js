// The steps of scripts/backendless-js-sdk/check: the real Backendless JS SDK (v8, transpiled by the check) against
// `understudy serve` on the port given. Each step asserts what the live Backendless service answers, as the contract
// (docs/lua-api.md, ../shared/spec/v3.md, v4.md) fixes it; steps tagged { v: 3 } or { v: 4 } need that contract
// version. The last step reads the server's coverage report of this very run (X-Understudy-Test names each step).
//   node run.js PORT      (with the transpiled SDK reachable as require('backendless'))
const { Check, expect, expectEqual } = require('../lib/sdk-check');

const port = process.argv[2];
const check = new Check(port);
const Backendless = require('backendless');
const APP = 'UNDERSTUDY-APP';
const CLOUDCODE_KEY = 'UNDERSTUDY-CLOUDCODE-KEY';
const serverURL = `http://127.0.0.1:${port}`;

// Every request the SDK sends names the step it belongs to in X-Understudy-Test, through the SDK's own request
// pipeline (Backendless/Request's pluggable sender, which every SDK call goes through), so the server's coverage
// report can be read per step (coverageOfThisRun).
const sendThroughSDK = Backendless.Request.send;
Backendless.Request.send = (path, method, headers, ...rest) =>
  sendThroughSDK(path, method, { ...headers, 'X-Understudy-Test': testName() }, ...rest);
// The running step's label as a header value (HTTP header values are ASCII here).
function testName() { return (check.current || 'setup').replace(/[^\x20-\x7e]/g, '?'); }
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
    await version4Users();
    await version4Roles();
    await version4Data();
    await version4Email();
    await version4BrowserOAuth();
    await coverageOfThisRun();
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

// Contract version 4 (../shared/spec/v4.md): the CloudCode key, describeUserClass, login by objectId, status changes.
let cloud; // a standalone SDK under the CloudCode key, as Cloud Code builds one
let dana;
async function version4Users() {
  await check.step('a standalone SDK under the CloudCode key (initApp standalone)', async () => {
    cloud = Backendless.initApp({ appId: APP, apiKey: CLOUDCODE_KEY, standalone: true, serverURL });
    expectEqual(cloud.serverURL, serverURL, 'the standalone app keeps the server URL');
  }, { v: 4 });
  await check.step('describeUserClass lists password (required, not the identity) and the dynamic columns', async () => {
    const columns = await Users().describeUserClass();
    const byName = Object.fromEntries(columns.map(c => [c.name, c]));
    expectEqual([byName.password && byName.password.required, byName.password && byName.password.identity], [true, false], 'password');
    expectEqual([byName.objectId.type, byName.objectId.isPrimaryKey, byName.created.type, byName.score && byName.score.type], ['STRING_ID', true, 'DATETIME', 'INT'], 'types');
    const names = columns.map(c => c.name);
    expectEqual(names, [...names].sort(), 'sorted by name');
    expect(columns.every(c => 'defaultValue' in c && 'relatedTable' in c && 'customRegex' in c && c.autoLoad === false), 'every field of a column');
  }, { v: 4 });
  dana = await check.step('Data.of(Users).save under the CloudCode key creates a user (as register does)', async () => {
    const user = await cloud.Data.of('Users').save({ email: 'dana@example.com', password: 'danapass', name: 'Dana', team: 'v4', age: 41 });
    expectEqual([user.email, user.name, user.password, user.userStatus, user.___class], ['dana@example.com', 'Dana', undefined, 'ENABLED', 'Users'], 'user');
    return user;
  }, { v: 4 });
  await check.step('login(objectId) with the client key: 2014 and its message', async () => {
    await Users().login(dana.objectId).then(() => { throw new Error('it succeeded'); },
      (e) => expectEqual([e.code, e.message], [2014, 'Login by object id is allowed only for Code Runner API key'], 'error'));
  }, { v: 4 });
  await check.step('login(objectId) with the CloudCode key: the user with a user-token', async () => {
    const user = await cloud.UserService.login(dana.objectId);
    expectEqual([user.objectId, user.email, typeof user['user-token']], [dana.objectId, 'dana@example.com', 'string'], 'user');
    await cloud.UserService.logout();
  }, { v: 4 });
  await check.fails('login(objectId) of an unknown id (CloudCode key)', () => cloud.UserService.login('00000000-0000-0000-0000-000000000000'), 3057, { v: 4 });
  await check.step('disableUser / enableUser with the client key: 3054 "Operation allowed only for BL logic."', async () => {
    for (const call of [() => Users().disableUser(dana.objectId), () => Users().enableUser(dana.objectId)]) {
      await call().then(() => { throw new Error('it succeeded'); },
        (e) => expectEqual([e.code, e.message], [3054, 'Operation allowed only for BL logic.'], 'error'));
    }
  }, { v: 4 });
  await check.step('disableUser (CloudCode): findById shows DISABLED and the login fails with 3090; enableUser brings it back', async () => {
    await cloud.UserService.disableUser(dana.objectId);
    expectEqual((await cloud.Data.of(cloud.Users).findById(dana.objectId)).userStatus, 'DISABLED', 'status after disableUser');
    await Users().login('dana@example.com', 'danapass').then(() => { throw new Error('login of a disabled user succeeded'); },
      (e) => expectEqual(e.code, 3090, 'login of a disabled user'));
    await cloud.UserService.enableUser(dana.objectId);
    expectEqual((await cloud.Data.of(cloud.Users).findById(dana.objectId)).userStatus, 'ENABLED', 'status after enableUser');
  }, { v: 4 });
  await check.fails('enableUser of an enabled user (CloudCode)', () => cloud.UserService.enableUser(dana.objectId), 3086, { v: 4 });
  await check.step('updateUserStatus(id, "DISABLED") then "ENABLED" (CloudCode); DISABLED twice is 3085', async () => {
    await cloud.UserService.updateUserStatus(dana.objectId, 'DISABLED');
    await cloud.UserService.updateUserStatus(dana.objectId, 'DISABLED').then(() => { throw new Error('it succeeded'); },
      (e) => expectEqual(e.code, 3085, 'disabling twice'));
    await cloud.UserService.updateUserStatus(dana.objectId, 'ENABLED');
  }, { v: 4 });
  await check.fails('updateUserStatus with another status (CloudCode): 8002', () => cloud.UserService.updateUserStatus(dana.objectId, 'BANNED'), 8002, { v: 4 });
  await check.fails('disableUser of an unknown id (CloudCode): 1000', () => cloud.UserService.disableUser('00000000-0000-0000-0000-000000000000'), 1000, { v: 4 });
}

// Roles: custom roles are made in the console (control Lua), assigned and read with the CloudCode key.
async function version4Roles() {
  await check.step('define custom roles (control Lua: app.roles.define)', async () => {
    await check.lua(`local app = understudy.app("${APP}") app.roles.define("Editor") app.roles.define("Viewer") return true`);
  }, { v: 4 });
  await check.fails('assignRole with the client key', () => Users().assignRole('dana@example.com', 'Editor'), 2011, { v: 4 });
  await check.fails('unassignRole with the client key', () => Users().unassignRole('dana@example.com', 'Editor'), 2011, { v: 4 });
  await check.step('assignRole (CloudCode) by identity and by objectId', async () => {
    await cloud.UserService.assignRole('dana@example.com', 'Editor');
    await cloud.UserService.assignRole(alice.objectId, 'Viewer');
    await cloud.UserService.assignRole(alice.objectId, 'Editor');
  }, { v: 4 });
  await check.fails('assignRole of a system role (CloudCode)', () => cloud.UserService.assignRole('dana@example.com', 'AuthenticatedUser'), 2007, { v: 4 });
  await check.fails('unassignRole of a system role (CloudCode)', () => cloud.UserService.unassignRole('dana@example.com', 'AuthenticatedUser'), 2008, { v: 4 });
  await check.fails('assignRole of a role nobody defined (CloudCode)', () => cloud.UserService.assignRole('dana@example.com', 'NonexistentRole'), 2005, { v: 4 });
  await check.fails('assignRole to nobody (CloudCode)', () => cloud.UserService.assignRole('nobody@example.com', 'Editor'), 3057, { v: 4 });
  await check.fails('getUserRoles(userId) with the client key', () => Users().getUserRoles(dana.objectId), 3081, { v: 4 });
  await check.step('getUserRoles(userId) (CloudCode): system roles, then custom roles in assignment order', async () => {
    expectEqual(await cloud.UserService.getUserRoles(alice.objectId), ['AuthenticatedUser', 'Viewer', 'Editor'], 'alice');
    expectEqual(await cloud.UserService.getUserRoles(dana.objectId), ['AuthenticatedUser', 'Editor'], 'dana');
  }, { v: 4 });
  await check.step('findByRole(role, true): the holders as Backendless.User, each with its custom roles', async () => {
    const users = await Users().findByRole('Editor', true);
    expectEqual(users.map(u => u.email), ['alice@example.com', 'dana@example.com'], 'holders in created order');
    expect(users.every(u => u instanceof Backendless.User), 'parsed as Backendless.User');
    expectEqual(users.map(u => u.roles), [['Viewer', 'Editor'], ['Editor']], 'roles');
  }, { v: 4 });
  await check.step('findByRole with a DataQueryBuilder (where, sortBy, properties)', async () => {
    const query = Backendless.DataQueryBuilder.create().setWhereClause("email LIKE 'dana%'").setProperties(['email']);
    const users = await Users().findByRole('Editor', false, query);
    expectEqual(users.map(u => [u.email, u.roles, u.objectId]), [['dana@example.com', undefined, undefined]], 'users');
  }, { v: 4 });
  await check.fails('findByRole of a system role', () => Users().findByRole('AuthenticatedUser'), 2003, { v: 4 });
  await check.fails('findByRole of a role nobody defined', () => Users().findByRole('Ghost'), 2005, { v: 4 });
  await check.step('unassignRole (CloudCode): the role is gone from getUserRoles', async () => {
    await cloud.UserService.unassignRole(alice.objectId, 'Viewer');
    expectEqual(await cloud.UserService.getUserRoles(alice.objectId), ['AuthenticatedUser', 'Editor'], 'alice');
  }, { v: 4 });
  await check.step('getUserRoles() of the session user (client key): its system roles, then its custom roles', async () => {
    await Users().login('alice@example.com', 'wonderland');
    try {
      expectEqual(await Users().getUserRoles(), ['AuthenticatedUser', 'RestUser', 'Editor'], 'roles');
    } finally { await Users().logout(); }
  }, { v: 4 });
}

// The Data service on the Users table, with DataQueryBuilder.
async function version4Data() {
  const table = () => Backendless.Data.of('Users');
  const query = () => Backendless.DataQueryBuilder.create();
  const team = "team = 'v4'";
  await check.step('Data.of(Users).save creates users (client key); save with objectId updates', async () => {
    for (const [email, name, age] of [['erin@example.com', 'Erin', 29], ['finn@example.com', 'finn', 35], ['gail@example.com', 'Gail', 52]]) {
      await clockAdvance(1);
      const user = await table().save({ email, password: 'pw', name, age, team: 'v4' });
      expectEqual([user.email, user.password], [email, undefined], 'created');
    }
    const erin = (await table().find(query().setWhereClause("email = 'erin@example.com'")))[0];
    const updated = await table().save({ objectId: erin.objectId, age: 30 });
    expectEqual([updated.objectId, updated.age, updated.name], [erin.objectId, 30, 'Erin'], 'updated');
  }, { v: 4 });
  await check.step('find with where, sortBy and pageSize: Backendless.User records without password', async () => {
    const users = await table().find(query().setWhereClause(`${team} AND age >= 30`).setSortBy(['age desc']).setPageSize(2));
    expectEqual(users.map(u => [u.name, u.age]), [['Gail', 52], ['Dana', 41]], 'first page');
    expect(users.every(u => u instanceof Backendless.User && u.password === undefined && u.___class === 'Users'), 'users, no password');
    const next = await table().find(query().setWhereClause(`${team} AND age >= 30`).setSortBy(['age desc']).setPageSize(2).setOffset(2));
    expectEqual(next.map(u => u.name), ['finn', 'Erin'], 'second page');
  }, { v: 4 });
  await check.step('find sorts strings without case; properties keep only those columns and ___class', async () => {
    const users = await table().find(query().setWhereClause(team).setSortBy('name').setProperties(['name']));
    expectEqual(users.map(u => u.name), ['Dana', 'Erin', 'finn', 'Gail'], 'names');
    expectEqual(Object.keys(users[0]).sort(), ['___class', 'name'], 'columns');
  }, { v: 4 });
  await check.step('find with excludeProperties and IN, LIKE, IS NULL', async () => {
    const users = await table().find(query().setWhereClause(`${team} AND (name IN ('Erin', 'Gail') OR email LIKE 'd%') AND score IS NULL`)
      .excludeProperties('email', 'age').setSortBy('created'));
    expectEqual(users.map(u => [u.name, u.email, u.age]), [['Dana', undefined, undefined], ['Erin', undefined, undefined], ['Gail', undefined, undefined]], 'users');
  }, { v: 4 });
  await check.step('findFirst and findLast (by created, or by sortBy)', async () => {
    expectEqual((await table().findFirst(query().setWhereClause(team))).name, 'Dana', 'first by created');
    expectEqual((await table().findLast(query().setWhereClause(team))).name, 'Gail', 'last by created');
    expectEqual((await table().findFirst(query().setWhereClause(team).setSortBy('age'))).name, 'Erin', 'first by age');
    expectEqual(await table().findFirst(query().setWhereClause("team = 'nobody'")), undefined, 'no match');
  }, { v: 4 });
  await check.step('findById with properties', async () => {
    const user = await table().findById(dana.objectId, query().setProperties(['email', 'age']));
    expectEqual([user.email, user.age, user.name], ['dana@example.com', 41, undefined], 'record');
  }, { v: 4 });
  await check.step('getObjectCount(where) and getObjectCount() (every row, guests included)', async () => {
    expectEqual(await table().getObjectCount(`${team} AND age > 30`), 3, 'count with a where clause');
    expectEqual(await table().getObjectCount(query().setWhereClause(team)), 4, 'count with a DataQueryBuilder');
    const all = await table().getObjectCount();
    expect(typeof all === 'number' && all >= 10, `every row: ${all}`);
  }, { v: 4 });
  await check.fails('find with a malformed where clause: 19000 naming where', () => table().find(query().setWhereClause("age >")), 19000, { v: 4 });
  await check.fails('find with an unknown column in properties: 1006', () => table().find(query().setProperties(['shoeSize'])), 1006, { v: 4 });
  await check.fails('find on another table: 1009', () => Backendless.Data.of('Orders').find(), 1009, { v: 4 });
  await check.fails('find with pageSize over 100: 1025', () => table().find({ pageSize: 101 }), 1025, { v: 4 });
  await check.fails('findById of an unknown id', () => table().findById('00000000-0000-0000-0000-000000000001'), 1000, { v: 4 });
  await check.fails('save with the objectId of nobody: 1000', () => table().save({ objectId: '00000000-0000-0000-0000-000000000001', age: 1 }), 1000, { v: 4 });
  await check.fails('save a new user whose email is taken: 3033', () => table().save({ email: 'gail@example.com', password: 'x' }), 3033, { v: 4 });
  await check.step('remove: deletionTime, then the user is gone from find and count', async () => {
    const gail = await table().findFirst(query().setWhereClause("email = 'gail@example.com'"));
    const reply = await table().remove(gail.objectId);
    expect(typeof reply.deletionTime === 'number', `deletionTime, got ${JSON.stringify(reply)}`);
    expectEqual(await table().getObjectCount(team), 3, 'count after remove');
  }, { v: 4 });
  await check.fails('remove an unknown id', () => table().remove('00000000-0000-0000-0000-000000000001'), 1000, { v: 4 });
}

// Email templates (made in the console: control Lua) sent with sendEmailFromTemplate.
async function version4Email() {
  const envelope = () => new Backendless.Messaging.EmailEnvelope();
  await check.step('define an email template (control Lua: app.email.templates.define)', async () => {
    await check.lua(`understudy.app("${APP}").email.templates.define{ name = "Offer", subject = "Hi {Users.name}", body = "{discount}% off for {Users.email}" } return true`);
  }, { v: 4 });
  await check.step('sendEmailFromTemplate to addresses with cc: one email per recipient, placeholders filled', async () => {
    const before = (await check.outbox('emails', APP)).length;
    const reply = await Messaging().sendEmailFromTemplate('Offer', envelope().setTo(['erin@example.com', 'stranger@example.com']).setCc(['boss@example.com']), { discount: 20 });
    expectAccepted(reply);
    const emails = (await check.outbox('emails', APP)).slice(before);
    expectEqual(emails.map(e => [e.to, e.kind, e.subject, e.body]).sort(), [
      ['erin@example.com', 'template', 'Hi Erin', '20% off for erin@example.com'],
      ['stranger@example.com', 'template', 'Hi {Users.name}', '20% off for {Users.email}'],
    ], 'emails');
  }, { v: 4 });
  await check.step('sendEmailFromTemplate with a query: the matching users get it, the addresses are ignored', async () => {
    const before = (await check.outbox('emails', APP)).length;
    expectAccepted(await Messaging().sendEmailFromTemplate('Offer', envelope().setQuery("team = 'v4' AND age > 40").setTo(['ignored@example.com']), { discount: 5 }));
    expectEqual((await check.outbox('emails', APP)).slice(before).map(e => e.to), ['dana@example.com'], 'recipients');
  }, { v: 4 });
  await check.fails('sendEmailFromTemplate of a template nobody defined', () => Messaging().sendEmailFromTemplate('nonexistent-template', envelope().setTo(['a@example.com'])), 24002, { v: 4 });
  await check.fails('sendEmailFromTemplate with only cc', () => Messaging().sendEmailFromTemplate('Offer', envelope().setCc(['a@example.com'])), 5048, { v: 4 });
  await check.fails('sendEmailFromTemplate to an address that is not one', () => Messaging().sendEmailFromTemplate('Offer', envelope().setTo(['not-an-address'])), 5047, { v: 4 });
}

// Social login in the browser. The JS SDK's loginWithFacebook / GooglePlus / Twitter open a popup (window.open),
// ask the server for the provider's authorization URL, send the popup there and wait for the popup's message. In
// Node there is no window: `browserStandIn` is one, a popup that loads the server's own sign-in page, signs in as a
// person would (the form's accessToken) and hands the page's posted message to the SDK's listener, with the origin
// a browser gives it (the server). scripts/backendless-js-sdk/browser.py runs the same flow in Chromium.
function browserStandIn(token, secret, seen) {
  const listeners = [];
  global.window = {
    addEventListener: (type, fn) => { if (type === 'message') listeners.push(fn); },
    removeEventListener: (type, fn) => { const at = listeners.indexOf(fn); if (at >= 0) listeners.splice(at, 1); },
    open: () => {
      const element = { innerHTML: '', style: {} };
      const popup = { closed: false, document: { getElementsByTagName: () => [element] }, close() { popup.closed = true; } };
      seen.popup = popup;
      popup.location = {
        set href(url) {
          seen.url = url;
          signIn(url).catch(e => { seen.error = e; });
        },
      };
      return popup;
    },
  };
  async function signIn(url) {
    const page = await httpText('GET', url);
    seen.page = page;
    if (page.status !== 200 || !/name="accessToken"/.test(page.text)) throw new Error(`the sign-in page: ${page.status} ${page.text.slice(0, 200)}`);
    const form = `accessToken=${encodeURIComponent(token)}` + (secret ? `&accessTokenSecret=${encodeURIComponent(secret)}` : '');
    const ending = await httpText('POST', url, form, 'application/x-www-form-urlencoded');
    seen.ending = ending;
    const posted = /JSON\.stringify\((.*)\);/.exec(ending.text);
    if (!posted) throw new Error(`the sign-in's page posts nothing: ${ending.status} ${ending.text.slice(0, 300)}`);
    const message = JSON.stringify(JSON.parse(posted[1]));
    for (const listener of listeners.slice()) listener({ origin: serverURL, data: message });
  }
}

function httpText(method, url, body, type) {
  const http = require('http');
  return new Promise((resolve, reject) => {
    const headers = { 'X-Understudy-Test': testName() };
    if (body != null) headers['Content-Type'] = type;
    const req = http.request(url, { method, headers }, res => {
      let data = '';
      res.on('data', c => data += c);
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text: data }));
    });
    req.on('error', reject);
    if (body != null) req.write(body);
    req.end();
  });
}

async function version4BrowserOAuth() {
  await check.step('define provider accounts for the browser flow (control Lua: app.oauth.account)', async () => {
    await check.lua(`
      local app = understudy.app("${APP}")
      app.oauth.account{ provider = "facebook", token = "fb-browser", profile = { id = "fb-9", email = "hana@fb.example", name = "Hana" } }
      app.oauth.account{ provider = "googleplus", token = "g-browser", profile = { id = "g-9", email = "ivan@gmail.com", name = "Ivan" } }
      app.oauth.account{ provider = "twitter", token = "tw-browser", secret = "tw-browser-secret", profile = { id = "tw-9", name = "Jo" } }
      return true`);
  }, { v: 4 });
  const popupLogin = (label, call, token, secret, want) => check.step(label, async () => {
    const seen = {};
    browserStandIn(token, secret, seen);
    try {
      const user = await call();
      expect(/\/users\/oauth\/[a-z]+\/authorize\?state=[A-Za-z0-9]{32}$/.test(seen.url || ''), `the popup went to the sign-in page, got ${seen.url}`);
      expect(seen.popup && seen.popup.closed, 'the SDK closed the popup');
      expectEqual([user.email, user.name, user.socialAccount, typeof user['user-token']], want, 'user');
      expect(user instanceof Backendless.User, 'a Backendless.User');
      expectEqual((await Users().getCurrentUser()).objectId, user.objectId, 'the current user');
      await Users().logout();
    } finally {
      delete global.window;
      if (seen.error) throw seen.error;
    }
  }, { v: 4 });
  await popupLogin('loginWithFacebook: popup, sign-in page, the page posts the session', () => Users().loginWithFacebook({ email: 'email', name: 'name' }, ['email']),
    'fb-browser', null, ['hana@fb.example', 'Hana', 'facebook', 'string']);
  await popupLogin('loginWithGooglePlus', () => Users().loginWithGooglePlus({ email: 'email' }, ['email']),
    'g-browser', null, ['ivan@gmail.com', undefined, 'googleplus', 'string']);
  await popupLogin('loginWithTwitter (OAuth1: the page takes the secret too)', () => Users().loginWithTwitter({ name: 'name' }),
    'tw-browser', 'tw-browser-secret', [undefined, 'Jo', 'twitter', 'string']);
  await check.step('loginWithFacebook with a token the provider does not know: the promise rejects with the posted fault', async () => {
    const seen = {};
    browserStandIn('stolen', null, seen);
    try {
      await Users().loginWithFacebook({ email: 'email' }).then(() => { throw new Error('it succeeded'); },
        (e) => expectEqual(e.message, "External authentication failed with message 'Invalid access token'", 'error'));
      expectEqual(seen.ending && seen.ending.status, 400, 'the failed sign-in page\'s status');
    } finally { delete global.window; }
  }, { v: 4 });
  await check.step('getAuthorizationUrlLink(..., redirect false): the URL; the page signs in and answers the user', async () => {
    const url = await Users().getAuthorizationUrlLink('googleplus', { email: 'email' }, ['email'], false);
    expect(/^http:\/\/127\.0\.0\.1:\d+\/UNDERSTUDY-APP\/UNDERSTUDY-REST-KEY\/users\/oauth\/googleplus\/authorize\?state=[A-Za-z0-9]{32}$/.test(url), `url: ${url}`);
    const page = await httpText('GET', url);
    expect(page.status === 200 && page.text.includes('Continue as Ivan (ivan@gmail.com)'), `the page offers the account: ${page.text.slice(0, 200)}`);
    const ending = await httpText('POST', url, 'accessToken=g-browser', 'application/x-www-form-urlencoded');
    const user = JSON.parse(ending.text);
    expectEqual([ending.status, user.email, user.socialAccount, typeof user['user-token']], [200, 'ivan@gmail.com', 'googleplus', 'string'], 'user');
    const used = await httpText('GET', url);
    expectEqual([used.status, JSON.parse(used.text).code], [400, 3080], 'the used URL');
  }, { v: 4 });
  await check.step('getAuthorizationUrlLink with redirectAfterLoginUrl: the sign-in redirects there with userId and userToken', async () => {
    const url = await Users().getAuthorizationUrlLink('facebook', { email: 'email' }, null, false, 'https://app.example/signed-in');
    const ending = await httpText('POST', url, 'accessToken=fb-browser', 'application/x-www-form-urlencoded');
    expectEqual(ending.status, 302, 'status');
    expect(/^https:\/\/app\.example\/signed-in\?userId=[0-9A-F-]{36}&userToken=\S+$/.test(ending.headers.location || ''), `Location: ${ending.headers.location}`);
  }, { v: 4 });
  await check.step('getAuthorizationUrlLink without redirect: the server redirects (302), which the Node SDK rejects, as live', async () => {
    await Users().getAuthorizationUrlLink('facebook', {}, null).then(
      (reply) => { throw new Error(`it resolved: ${JSON.stringify(reply)}`); },
      (e) => expectEqual(e.status, 302, 'the rejection\'s status'));
  }, { v: 4 });
}

// Issue 31: this very run drove the coverage report, each step named by X-Understudy-Test (the request hook above).
async function coverageOfThisRun() {
  await check.step('GET /_understudy/coverage: per step, the codes this run met and how', async () => {
    const report = (await check.control('GET', 'coverage')).json;
    const names = report.tests.map(t => t.name);
    for (const name of ['login with a wrong password', 'login(objectId) with the client key: 2014 and its message', 'assignRole of a system role (CloudCode)']) {
      expect(names.includes(name), `the test "${name}" is in the report (tests: ${names.length})`);
    }
    const codeRow = (r, code) => r.codes.find(c => c.flavour === 'backendless' && c.code === String(code));
    expect(codeRow(report, 3003).real >= 1 && codeRow(report, 2014).real >= 1 && codeRow(report, 3080).real >= 1, 'real triggers counted');
    const wrongPassword = (await check.control('GET', `coverage?test=${encodeURIComponent('login with a wrong password')}`)).json;
    const login = wrongPassword.operations.find(o => o.op === 'users.login');
    expectEqual(login.answered.map(a => [a.code, a.real, a.injected]), [['3003', 1, 0]], 'users.login in that step');
    expect(login.never_answered.includes('3087'), 'the codes users.login can answer that the step never met');
    const roles = (await check.control('GET', `coverage?test=${encodeURIComponent('getUserRoles(userId) with the client key')}`)).json;
    expectEqual(roles.operations.map(o => [o.op, o.answered.map(a => a.code)]), [['roles.of', ['3081']]], 'roles.of in that step');
  }, { v: 4 });
  // The step's label is the test name its requests carry.
  await check.step('injected 3000 on login, then a retry', async () => {
    const fault = await check.control('POST', 'faults', { app: APP, op: 'users.login', code: 3000, times: 1 });
    expect(fault.status === 200 || fault.status === 201, `faults: ${fault.text}`);
    await Users().login('alice@example.com', 'wonderland').then(() => { throw new Error('the injected fault did not fire'); }, (e) => expectEqual(e.code, 3000, 'code'));
    await Users().login('alice@example.com', 'wonderland');
    await Users().logout();
    const report = (await check.control('GET', `coverage?test=${encodeURIComponent('injected 3000 on login, then a retry')}`)).json;
    const login = report.operations.find(o => o.op === 'users.login');
    expectEqual(login.answered.map(a => [a.code, a.real, a.injected]), [['3000', 0, 1], ['ok', 1, 0]], 'users.login');
    const reaction = report.reactions.find(r => r.op === 'users.login' && r.code === '3000');
    expectEqual([reaction.retry, reaction.next], [1, { 'users.login': 1 }], 'what the SDK did next');
  }, { v: 4 });
}
