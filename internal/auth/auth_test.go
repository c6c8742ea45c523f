package auth

import (
	"strings"
	"sync"
	"testing"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

func TestRegisterLoginUserInfo(t *testing.T) {
	e := newEnv(t)
	uid := e.registerEmail(t, "Alice@Example.com", "secret123")
	if len(uid) != 8 || !allDigits(uid) {
		t.Fatalf("uid %q is not 8 digits", uid)
	}
	// E-mail is case-insensitive.
	m := e.login(t, Account{Email: "alice@example.COM"}, "secret123")
	if m.UserID != uid {
		t.Fatalf("session of %s, want %s", m.UserID, uid)
	}
	info, err := e.svc.UserInfo(ctx, m)
	wantCode(t, err, "")
	if info.ID != uid || info.Email != "alice@example.com" || info.AccountType != AccountRegular ||
		info.GoogleStatus != 0 || info.IsOpenMobileCheck != 0 || info.KYCStatus != 0 ||
		info.Ctime != e.clock.Now().UnixMilli() {
		t.Fatalf("user info %+v", info)
	}
	// The password is stored as argon2id, never in clear.
	u, _ := e.svc.User(ctx, uid)
	if !strings.HasPrefix(u.PasswordHash, "$argon2id$") || strings.Contains(u.PasswordHash, "secret123") {
		t.Fatalf("password hash %q", u.PasswordHash)
	}
}

func TestRegisterByPhone(t *testing.T) {
	e := newEnv(t)
	wantCode(t, e.svc.SendSMSCode(ctx, meta("1.1.1.1"), "+976", "9911 2233", OpRegister), "")
	code := e.box.last("+97699112233", OpRegister)
	if len(code) != 6 {
		t.Fatalf("no SMS code in outbox: %+v", e.box.msgs)
	}
	uid, err := e.svc.Register(ctx, meta("1.1.1.1"), RegisterInput{Account: Account{CountryCode: "976", Mobile: "99112233"}, Password: "abcdefg1", Code: code})
	wantCode(t, err, "")
	m := e.login(t, Account{CountryCode: "976", Mobile: "99112233"}, "abcdefg1")
	info, _ := e.svc.UserInfo(ctx, m)
	if info.ID != uid || info.MobileNumber != "99112233" || info.CountryCode != "976" || info.Email != "" {
		t.Fatalf("user info %+v", info)
	}
}

func TestRegisterValidation(t *testing.T) {
	e := newEnv(t)
	for _, pw := range []string{"short1", "onlyletters", "12345678", "abcdefgh12345678901234567890123456", "has space1"} {
		_, err := e.svc.Register(ctx, meta("1.1.1.1"), RegisterInput{Account: Account{Email: "a@b.co"}, Password: pw, Code: "123456"})
		wantCode(t, err, apperr.CodeWeakPassword)
	}
	for _, acct := range []Account{{}, {Email: "not-an-email"}, {Email: "a@b"}, {Email: "x@y.mn", CountryCode: "976", Mobile: "99112233"},
		{CountryCode: "976"}, {CountryCode: "97a", Mobile: "991"}, {CountryCode: "976", Mobile: "12"}} {
		_, err := e.svc.Register(ctx, meta("1.1.1.1"), RegisterInput{Account: acct, Password: "abcdefg1", Code: "123456"})
		wantCode(t, err, apperr.CodeParam)
	}
	// No code requested.
	_, err := e.svc.Register(ctx, meta("1.1.1.1"), RegisterInput{Account: Account{Email: "a@b.co"}, Password: "abcdefg1", Code: "123456"})
	wantCode(t, err, apperr.CodeCodeExpired)
}

func TestDuplicateAccounts(t *testing.T) {
	e := newEnv(t)
	e.registerEmail(t, "bob@example.com", "secret123")
	wantCode(t, e.svc.SendEmailCode(ctx, meta("1.1.1.1"), "BOB@example.com", OpRegister), apperr.CodeAccountExists)
	// Without a code, sign-up does not say whether the e-mail has an
	// account: only the code-sending path does, counted against the IP's
	// limit (an outside check found sign-up answering 12001 to anyone).
	_, err := e.svc.Register(ctx, meta("1.1.1.1"), RegisterInput{Account: Account{Email: "bob@example.com"}, Password: "secret123", Code: "000000"})
	wantCode(t, err, apperr.CodeCodeExpired)
}

func TestConcurrentSignupsMakeOneAccount(t *testing.T) {
	e := newEnv(t)
	email := "race@example.com"
	wantCode(t, e.svc.SendEmailCode(ctx, meta("1.1.1.1"), email, OpRegister), "")
	code := e.box.last(email, OpRegister)
	const n = 16
	var wg sync.WaitGroup
	uids := make(chan string, n)
	codes := make(chan string, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			uid, err := e.svc.Register(ctx, meta("1.1.1.1"), RegisterInput{Account: Account{Email: email}, Password: "secret123", Code: code})
			if err == nil {
				uids <- uid
				return
			}
			codes <- apperr.As(err).Entry.Code
		}()
	}
	wg.Wait()
	close(uids)
	close(codes)
	if len(uids) != 1 {
		t.Fatalf("%d accounts created, want exactly 1", len(uids))
	}
	for c := range codes {
		if c != apperr.CodeAccountExists && c != apperr.CodeCodeExpired {
			t.Fatalf("loser answered %s", c)
		}
	}
	// Without codes in the way, the uniqueness item alone decides.
	id, _ := normEmail("race2@example.com")
	var wg2 sync.WaitGroup
	var mu sync.Mutex
	won := 0
	for i := 0; i < n; i++ {
		wg2.Add(1)
		go func() {
			defer wg2.Done()
			if _, err := e.svc.createAccount(ctx, meta("1.1.1.1"), id, "x", ""); err == nil {
				mu.Lock()
				won++
				mu.Unlock()
			} else {
				wantCode(t, err, apperr.CodeAccountExists)
			}
		}()
	}
	wg2.Wait()
	if won != 1 {
		t.Fatalf("%d concurrent createAccount calls succeeded, want 1", won)
	}
}

func TestCodeResendWindowAndExpiry(t *testing.T) {
	e := newEnv(t)
	email := "c@example.com"
	wantCode(t, e.svc.SendEmailCode(ctx, meta("1.1.1.1"), email, OpRegister), "")
	first := e.box.last(email, OpRegister)
	e.clock.Add(60 * time.Second)
	err := e.svc.SendEmailCode(ctx, meta("1.1.1.1"), email, OpRegister)
	wantCode(t, err, apperr.CodeCodeResendWait)
	if ra := apperr.As(err).Data.(retryData).RetryAfter; ra != 30 {
		t.Fatalf("retryAfter %d, want 30", ra)
	}
	if !strings.Contains(apperr.As(err).Message(apperr.LangEN), "30 seconds") {
		t.Fatalf("message %q does not say when", apperr.As(err).Message(apperr.LangEN))
	}
	// Another operation for the same target is independent.
	wantCode(t, e.svc.SendEmailCode(ctx, meta("1.1.1.1"), "d@example.com", OpRegister), "")
	e.clock.Add(30 * time.Second)
	wantCode(t, e.svc.SendEmailCode(ctx, meta("1.1.1.1"), email, OpRegister), "")
	second := e.box.last(email, OpRegister)
	if first != second {
		_, err = e.svc.Register(ctx, meta("1.1.1.1"), RegisterInput{Account: Account{Email: email}, Password: "secret123", Code: first})
		wantCode(t, err, apperr.CodeVerifyCodeWrong) // the old code was replaced
	}
	// Valid 5 minutes.
	e.clock.Add(CodeTTL + time.Second)
	_, err = e.svc.Register(ctx, meta("1.1.1.1"), RegisterInput{Account: Account{Email: email}, Password: "secret123", Code: second})
	wantCode(t, err, apperr.CodeCodeExpired)
}

func TestCodeFiveWrongTriesBurnIt(t *testing.T) {
	e := newEnv(t)
	email := "burn@example.com"
	wantCode(t, e.svc.SendEmailCode(ctx, meta("1.1.1.1"), email, OpRegister), "")
	good := e.box.last(email, OpRegister)
	wrong := "000000"
	if good == wrong {
		wrong = "111111"
	}
	in := RegisterInput{Account: Account{Email: email}, Password: "secret123", Code: wrong}
	for i := 0; i < 4; i++ {
		_, err := e.svc.Register(ctx, meta("1.1.1.1"), in)
		wantCode(t, err, apperr.CodeVerifyCodeWrong)
	}
	_, err := e.svc.Register(ctx, meta("1.1.1.1"), in)
	wantCode(t, err, apperr.CodeCodeBurned)
	in.Code = good
	_, err = e.svc.Register(ctx, meta("1.1.1.1"), in)
	wantCode(t, err, apperr.CodeCodeBurned)
	// A burned code may be replaced at once.
	wantCode(t, e.svc.SendEmailCode(ctx, meta("1.1.1.1"), email, OpRegister), "")
	in.Code = e.box.last(email, OpRegister)
	_, err = e.svc.Register(ctx, meta("1.1.1.1"), in)
	wantCode(t, err, "")
}

func TestCodeSingleUseAndDeliveryFailure(t *testing.T) {
	e := newEnv(t)
	e.registerEmail(t, "once@example.com", "secret123")
	wantCode(t, e.svc.ResetStart(ctx, meta("1.1.1.1"), Account{Email: "once@example.com"}), "")
	code := e.box.last("once@example.com", OpForgot)
	_, err := e.svc.ResetVerify(ctx, meta("1.1.1.1"), Account{Email: "once@example.com"}, code)
	wantCode(t, err, "")
	_, err = e.svc.ResetVerify(ctx, meta("1.1.1.1"), Account{Email: "once@example.com"}, code)
	wantCode(t, err, apperr.CodeCodeExpired)

	// A failed delivery frees the resend window.
	e.box.fail = true
	wantCode(t, e.svc.SendEmailCode(ctx, meta("1.1.1.1"), "new@example.com", OpRegister), apperr.CodeSendFailed)
	e.box.fail = false
	wantCode(t, e.svc.SendEmailCode(ctx, meta("1.1.1.1"), "new@example.com", OpRegister), "")
	// Unknown accounts cannot reset; operation 25 is not requestable.
	wantCode(t, e.svc.ResetStart(ctx, meta("1.1.1.1"), Account{Email: "nobody@example.com"}), apperr.CodeAccountNotFound)
	wantCode(t, e.svc.SendEmailCode(ctx, meta("1.1.1.1"), "x@example.com", OpLogin), apperr.CodeOperationNotAllowed)
	// Own-target operations need a session.
	wantCode(t, e.svc.SendEmailCode(ctx, meta("1.1.1.1"), "once@example.com", OpWithdrawEmail), apperr.CodeNotSignedIn)
}

func TestCodeSendRateLimits(t *testing.T) {
	e := newEnv(t)
	lim := DefaultLimits
	lim.CodeIPSends = 3
	e.svc.limits = lim
	for i := 0; i < 3; i++ {
		wantCode(t, e.svc.SendEmailCode(ctx, meta("9.9.9.9"), "u"+string(rune('a'+i))+"@example.com", OpRegister), "")
	}
	err := e.svc.SendEmailCode(ctx, meta("9.9.9.9"), "z@example.com", OpRegister)
	wantCode(t, err, apperr.CodeTooManyRequests)
	if apperr.As(err).Data.(retryData).RetryAfter <= 0 {
		t.Fatal("no retryAfter")
	}
	wantCode(t, e.svc.SendEmailCode(ctx, meta("9.9.9.8"), "z@example.com", OpRegister), "")
}

// Asking for a sign-up or reset code says whether an account uses the
// e-mail, so every asking counts against the IP's sends, answered or not:
// listing which accounts exist goes no faster than codes go out.
func TestAccountLookupsCountAgainstCodeSends(t *testing.T) {
	e := newEnv(t)
	e.registerEmail(t, "known@example.com", "secret123")
	lim := DefaultLimits
	lim.CodeIPSends = 3
	e.svc.limits = lim
	ip := meta("7.7.7.7")
	wantCode(t, e.svc.ResetStart(ctx, ip, Account{Email: "nobody1@example.com"}), apperr.CodeAccountNotFound)
	wantCode(t, e.svc.SendEmailCode(ctx, ip, "known@example.com", OpRegister), apperr.CodeAccountExists)
	wantCode(t, e.svc.ResetStart(ctx, ip, Account{Email: "nobody2@example.com"}), apperr.CodeAccountNotFound)
	for _, err := range []error{
		e.svc.ResetStart(ctx, ip, Account{Email: "nobody3@example.com"}),
		e.svc.ResetStart(ctx, ip, Account{Email: "known@example.com"}),
		e.svc.SendEmailCode(ctx, ip, "known@example.com", OpRegister),
	} {
		wantCode(t, err, apperr.CodeTooManyRequests)
	}
	// Step two tells nothing either: no account, no code, the answer of an expired one.
	_, err := e.svc.ResetVerify(ctx, meta("7.7.7.8"), Account{Email: "nobody4@example.com"}, "123456")
	wantCode(t, err, apperr.CodeCodeExpired)
}

func TestLoginLockoutAndRetryAfter(t *testing.T) {
	e := newEnv(t)
	e.registerEmail(t, "lock@example.com", "secret123")
	acct := Account{Email: "lock@example.com"}
	for i := 0; i < 4; i++ {
		_, err := e.svc.Login(ctx, meta("2.2.2.2"), acct, "wrongpass1")
		wantCode(t, err, apperr.CodeBadCredentials)
	}
	_, err := e.svc.Login(ctx, meta("2.2.2.2"), acct, "wrongpass1")
	wantCode(t, err, apperr.CodeAccountLocked)
	if ra := apperr.As(err).Data.(retryData).RetryAfter; ra != 900 {
		t.Fatalf("retryAfter %d, want 900", ra)
	}
	// Locked even with the right password.
	e.clock.Add(10 * time.Minute)
	_, err = e.svc.Login(ctx, meta("2.2.2.3"), acct, "secret123")
	wantCode(t, err, apperr.CodeAccountLocked)
	if ra := apperr.As(err).Data.(retryData).RetryAfter; ra != 300 {
		t.Fatalf("retryAfter %d, want 300", ra)
	}
	e.clock.Add(5*time.Minute + time.Second)
	e.login(t, acct, "secret123")
	// Unknown accounts answer the same as wrong passwords.
	_, err = e.svc.Login(ctx, meta("2.2.2.4"), Account{Email: "ghost@example.com"}, "secret123")
	wantCode(t, err, apperr.CodeBadCredentials)
}

func TestLoginIPLimit(t *testing.T) {
	e := newEnv(t)
	for i := 0; i < 20; i++ {
		_, err := e.svc.Login(ctx, meta("3.3.3.3"), Account{Email: "g" + string(rune('a'+i)) + "@example.com"}, "secret123")
		wantCode(t, err, apperr.CodeBadCredentials)
	}
	_, err := e.svc.Login(ctx, meta("3.3.3.3"), Account{Email: "other@example.com"}, "secret123")
	wantCode(t, err, apperr.CodeTooManyRequests)
	e.clock.Add(15 * time.Minute)
	_, err = e.svc.Login(ctx, meta("3.3.3.3"), Account{Email: "other@example.com"}, "secret123")
	wantCode(t, err, apperr.CodeBadCredentials)
}

func TestSessionsExpireAndLogout(t *testing.T) {
	e := newEnv(t)
	e.registerEmail(t, "s@example.com", "secret123")
	res, err := e.svc.Login(ctx, meta("1.1.1.1"), Account{Email: "s@example.com"}, "secret123")
	wantCode(t, err, "")
	if len(res.Token) != 64 {
		t.Fatalf("token %q", res.Token)
	}
	m := e.metaOf(t, res.Token)
	if m.SessionID == res.Token {
		t.Fatal("session id must be the token's hash, not the token")
	}
	e.clock.Add(SessionTTL - time.Second)
	e.metaOf(t, res.Token)
	e.clock.Add(2 * time.Second)
	_, err = e.svc.Authenticate(ctx, res.Token)
	wantCode(t, err, apperr.CodeNotSignedIn)

	m = e.login(t, Account{Email: "s@example.com"}, "secret123")
	wantCode(t, e.svc.Logout(ctx, m), "")
	_, err = e.svc.Authenticate(ctx, "nonsense")
	wantCode(t, err, apperr.CodeNotSignedIn)
	_, err = e.svc.Authenticate(ctx, strings.Repeat("ab", 32))
	wantCode(t, err, apperr.CodeNotSignedIn)
}

func TestLogoutRevokes(t *testing.T) {
	e := newEnv(t)
	e.registerEmail(t, "out@example.com", "secret123")
	res, _ := e.svc.Login(ctx, meta("1.1.1.1"), Account{Email: "out@example.com"}, "secret123")
	m := e.metaOf(t, res.Token)
	wantCode(t, e.svc.Logout(ctx, m), "")
	_, err := e.svc.Authenticate(ctx, res.Token)
	wantCode(t, err, apperr.CodeNotSignedIn)
}

func TestGoogleChallengeAndReplay(t *testing.T) {
	e := newEnv(t)
	e.registerEmail(t, "g@example.com", "secret123")
	acct := Account{Email: "g@example.com"}
	m := e.login(t, acct, "secret123")
	setup, err := e.svc.GoogleSetupStart(ctx, m)
	wantCode(t, err, "")
	if !strings.HasPrefix(setup.QRCode, "data:image/png;base64,") || !strings.Contains(setup.OtpauthURI, "secret="+setup.Secret) ||
		!strings.Contains(setup.OtpauthURI, "issuer=Tenger") {
		t.Fatalf("setup %+v", setup)
	}
	u, _ := e.svc.User(ctx, m.UserID)
	if strings.Contains(u.GooglePending, setup.Secret) {
		t.Fatal("pending secret stored unsealed although a key is configured")
	}
	code := totpNow(t, setup.Secret, e.clock.Now())
	wantCode(t, e.svc.GoogleEnable(ctx, m, code, "wrongpass1"), apperr.CodeWrongPassword)
	wantCode(t, e.svc.GoogleEnable(ctx, m, "000000", "secret123"), apperr.CodeGoogleCodeWrong)
	wantCode(t, e.svc.GoogleEnable(ctx, m, code, "secret123"), "")
	info, _ := e.svc.UserInfo(ctx, m)
	if info.GoogleStatus != 1 {
		t.Fatal("google not on")
	}
	_, err = e.svc.GoogleSetupStart(ctx, m)
	wantCode(t, err, apperr.CodeGoogleAlreadyOn)
	wantCode(t, e.svc.Logout(ctx, m), "")

	res, err := e.svc.Login(ctx, meta("1.1.1.1"), acct, "secret123")
	wantCode(t, err, "")
	if res.ChallengeType != ChallengeGoogle || len(res.Token) != 64 {
		t.Fatalf("want a google challenge, got %+v", res)
	}
	if _, err := e.svc.Authenticate(ctx, res.Token); err == nil {
		t.Fatal("a challenge token must not be a session")
	}
	_, err = e.svc.ConfirmLogin(ctx, meta("1.1.1.1"), res.Token, "12345")
	wantCode(t, err, apperr.CodeGoogleCodeWrong)
	// The code used to turn it on is of the same step: a replay.
	_, err = e.svc.ConfirmLogin(ctx, meta("1.1.1.1"), res.Token, code)
	wantCode(t, err, apperr.CodeGoogleCodeUsed)
	e.clock.Add(30 * time.Second)
	next := totpNow(t, setup.Secret, e.clock.Now())
	out, err := e.svc.ConfirmLogin(ctx, meta("1.1.1.1"), res.Token, next)
	wantCode(t, err, "")
	e.metaOf(t, out.Token)
	// Single use.
	_, err = e.svc.ConfirmLogin(ctx, meta("1.1.1.1"), res.Token, next)
	wantCode(t, err, apperr.CodeChallengeExpired)

	// Challenges expire after 5 minutes.
	res, _ = e.svc.Login(ctx, meta("1.1.1.1"), acct, "secret123")
	e.clock.Add(ChallengeTTL + time.Second)
	_, err = e.svc.ConfirmLogin(ctx, meta("1.1.1.1"), res.Token, totpNow(t, setup.Secret, e.clock.Now()))
	wantCode(t, err, apperr.CodeChallengeExpired)

	// ±1 step skew is accepted.
	res, _ = e.svc.Login(ctx, meta("1.1.1.1"), acct, "secret123")
	_, err = e.svc.ConfirmLogin(ctx, meta("1.1.1.1"), res.Token, totpNow(t, setup.Secret, e.clock.Now().Add(30*time.Second)))
	wantCode(t, err, "")

	// Turning it off needs a fresh code.
	m = e.metaOf(t, out.Token)
	e.clock.Add(60 * time.Second)
	wantCode(t, e.svc.GoogleDisable(ctx, m, "", ""), apperr.CodeGoogleCodeRequired)
	wantCode(t, e.svc.GoogleDisable(ctx, m, totpNow(t, setup.Secret, e.clock.Now()), ""), "")
	info, _ = e.svc.UserInfo(ctx, m)
	if info.GoogleStatus != 0 {
		t.Fatal("google still on")
	}
	e.login(t, acct, "secret123")
}

func TestChallengeBurnsAfterFiveWrongCodes(t *testing.T) {
	e := newEnv(t)
	e.svc.limits.TOTPFailures = 100 // isolate the challenge's own limit
	e.registerEmail(t, "g5@example.com", "secret123")
	m := e.login(t, Account{Email: "g5@example.com"}, "secret123")
	setup, _ := e.svc.GoogleSetupStart(ctx, m)
	wantCode(t, e.svc.GoogleEnable(ctx, m, totpNow(t, setup.Secret, e.clock.Now()), "secret123"), "")
	e.clock.Add(time.Minute)
	res, _ := e.svc.Login(ctx, meta("1.1.1.1"), Account{Email: "g5@example.com"}, "secret123")
	for i := 0; i < 5; i++ {
		_, err := e.svc.ConfirmLogin(ctx, meta("1.1.1.1"), res.Token, "000000")
		if err == nil {
			t.Fatal("wrong code accepted")
		}
	}
	_, err := e.svc.ConfirmLogin(ctx, meta("1.1.1.1"), res.Token, totpNow(t, setup.Secret, e.clock.Now()))
	wantCode(t, err, apperr.CodeChallengeExpired)
}

func TestMobileChallenge(t *testing.T) {
	e := newEnv(t)
	e.registerEmail(t, "m@example.com", "secret123")
	acct := Account{Email: "m@example.com"}
	m := e.login(t, acct, "secret123")
	// Bind a phone (operationType 4 to the new number), then turn on the check (11).
	wantCode(t, e.svc.SendSMSCode(ctx, m, "976", "88001122", OpBindPhone), "")
	wantCode(t, e.svc.BindMobile(ctx, m, "976", "88001122", e.box.last("+97688001122", OpBindPhone), ""), "")
	wantCode(t, e.svc.SendSMSCode(ctx, m, "", "", OpSecurity), "")
	wantCode(t, e.svc.OpenMobileCheck(ctx, m, e.box.last("+97688001122", OpSecurity)), "")
	info, _ := e.svc.UserInfo(ctx, m)
	if info.IsOpenMobileCheck != 1 || info.MobileNumber != "88001122" {
		t.Fatalf("user info %+v", info)
	}
	before := e.box.count()
	res, err := e.svc.Login(ctx, meta("1.1.1.1"), acct, "secret123")
	wantCode(t, err, "")
	if res.ChallengeType != ChallengeMobile || e.box.count() != before+1 {
		t.Fatalf("want a mobile challenge with an SMS sent, got %+v", res)
	}
	code := e.box.last("+97688001122", OpLogin)
	_, err = e.svc.ConfirmLogin(ctx, meta("1.1.1.1"), res.Token, "99999a")
	wantCode(t, err, apperr.CodeVerifyCodeWrong)
	out, err := e.svc.ConfirmLogin(ctx, meta("1.1.1.1"), res.Token, code)
	wantCode(t, err, "")
	e.metaOf(t, out.Token)
	// A second sign-in within 90 s reuses the code still valid... which was used: a new one is needed after the window.
	e.clock.Add(CodeResend)
	res, _ = e.svc.Login(ctx, meta("1.1.1.1"), acct, "secret123")
	_, err = e.svc.ConfirmLogin(ctx, meta("1.1.1.1"), res.Token, e.box.last("+97688001122", OpLogin))
	wantCode(t, err, "")
	// The phone is now taken for everyone else.
	e.registerEmail(t, "other@example.com", "secret123")
	m2 := e.login(t, Account{Email: "other@example.com"}, "secret123")
	wantCode(t, e.svc.SendSMSCode(ctx, m2, "976", "88001122", OpBindPhone), apperr.CodeAccountExists)
	// Sign-in by that phone works.
	res, err = e.svc.Login(ctx, meta("1.1.1.1"), Account{CountryCode: "976", Mobile: "88001122"}, "secret123")
	wantCode(t, err, "")
	if res.ChallengeType != ChallengeMobile {
		t.Fatalf("want mobile challenge, got %+v", res)
	}
}

func TestPasswordChangeEndsOtherSessions(t *testing.T) {
	e := newEnv(t)
	e.registerEmail(t, "p@example.com", "secret123")
	acct := Account{Email: "p@example.com"}
	r1, _ := e.svc.Login(ctx, meta("1.1.1.1"), acct, "secret123")
	r2, _ := e.svc.Login(ctx, meta("1.1.1.1"), acct, "secret123")
	m1 := e.metaOf(t, r1.Token)
	wantCode(t, e.svc.UpdatePassword(ctx, m1, "wrongpass1", "newsecret9", ""), apperr.CodeWrongPassword)
	wantCode(t, e.svc.UpdatePassword(ctx, m1, "secret123", "weak", ""), apperr.CodeWeakPassword)
	wantCode(t, e.svc.UpdatePassword(ctx, m1, "secret123", "secret123", ""), apperr.CodeSamePassword)
	wantCode(t, e.svc.UpdatePassword(ctx, m1, "secret123", "newsecret9", ""), "")
	e.metaOf(t, r1.Token) // the current session stays
	_, err := e.svc.Authenticate(ctx, r2.Token)
	wantCode(t, err, apperr.CodeNotSignedIn)
	_, err = e.svc.Login(ctx, meta("1.1.1.1"), acct, "secret123")
	wantCode(t, err, apperr.CodeBadCredentials)
	e.login(t, acct, "newsecret9")
}

func TestResetPasswordFlow(t *testing.T) {
	e := newEnv(t)
	e.registerEmail(t, "r@example.com", "secret123")
	acct := Account{Email: "r@example.com"}
	r1, _ := e.svc.Login(ctx, meta("1.1.1.1"), acct, "secret123")
	wantCode(t, e.svc.ResetStart(ctx, meta("1.1.1.1"), acct), "")
	_, err := e.svc.ResetVerify(ctx, meta("1.1.1.1"), acct, "12345x")
	wantCode(t, err, apperr.CodeVerifyCodeWrong)
	token, err := e.svc.ResetVerify(ctx, meta("1.1.1.1"), acct, e.box.last("r@example.com", OpForgot))
	wantCode(t, err, "")
	wantCode(t, e.svc.ResetFinish(ctx, meta("1.1.1.1"), token, "short"), apperr.CodeWeakPassword)
	wantCode(t, e.svc.ResetFinish(ctx, meta("1.1.1.1"), strings.Repeat("0", 64), "brandnew77"), apperr.CodeResetTokenInvalid)
	wantCode(t, e.svc.ResetFinish(ctx, meta("1.1.1.1"), token, "brandnew77"), "")
	wantCode(t, e.svc.ResetFinish(ctx, meta("1.1.1.1"), token, "brandnew78"), apperr.CodeResetTokenInvalid)
	_, err = e.svc.Authenticate(ctx, r1.Token)
	wantCode(t, err, apperr.CodeNotSignedIn)
	e.login(t, acct, "brandnew77")

	// Reset tokens expire.
	e.clock.Add(CodeResend)
	wantCode(t, e.svc.ResetStart(ctx, meta("1.1.1.1"), acct), "")
	token, _ = e.svc.ResetVerify(ctx, meta("1.1.1.1"), acct, e.box.last("r@example.com", OpForgot))
	e.clock.Add(ResetTTL + time.Second)
	wantCode(t, e.svc.ResetFinish(ctx, meta("1.1.1.1"), token, "brandnew88"), apperr.CodeResetTokenInvalid)
}

func TestHistoriesNewestFirstAndPaged(t *testing.T) {
	e := newEnv(t)
	e.registerEmail(t, "h@example.com", "secret123")
	acct := Account{Email: "h@example.com"}
	phone := meta("4.4.4.4")
	phone.UserAgent = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"
	_, _ = e.svc.Login(ctx, phone, acct, "wrongpass1")
	for i := 0; i < 3; i++ {
		e.clock.Add(time.Second)
		e.login(t, acct, "secret123")
	}
	m := e.login(t, acct, "secret123")
	m.Lang = apperr.LangMN
	wantCode(t, e.svc.UpdateNickname(ctx, m, "  Болд  "), "")
	wantCode(t, e.svc.UpdateNickname(ctx, m, ""), apperr.CodeNicknameInvalid)
	wantCode(t, e.svc.UpdateNickname(ctx, m, strings.Repeat("x", 33)), apperr.CodeNicknameInvalid)
	info, _ := e.svc.UserInfo(ctx, m)
	if info.NickName != "Болд" {
		t.Fatalf("nickname %q", info.NickName)
	}
	lh, err := e.svc.LoginHistory(ctx, m, 1, 3)
	wantCode(t, err, "")
	if lh.Count != 5 || len(lh.List) != 3 {
		t.Fatalf("login history %+v", lh)
	}
	for i := 1; i < len(lh.List); i++ {
		if lh.List[i].Time > lh.List[i-1].Time {
			t.Fatal("not newest first")
		}
	}
	p2, _ := e.svc.LoginHistory(ctx, m, 2, 3)
	if len(p2.List) != 2 || p2.List[1].Action != actionLabel(actLoginFailed, apperr.LangMN) || p2.List[1].IP != "4.4.4.4" ||
		p2.List[1].DeviceName != "Safari 18 on iOS" || p2.List[0].DeviceName != "" {
		t.Fatalf("page 2 %+v", p2)
	}
	p3, _ := e.svc.LoginHistory(ctx, m, 3, 3)
	if len(p3.List) != 0 || p3.Count != 5 {
		t.Fatalf("page 3 %+v", p3)
	}
	sh, _ := e.svc.SettingHistory(ctx, m, 1, 10)
	if sh.Count != 2 || sh.List[0].Action != "Хоч нэр солисон" || sh.List[1].Action != "Бүртгэл үүсгэсэн" ||
		sh.List[0].Device != "test-device" {
		t.Fatalf("setting history %+v", sh)
	}
}

func TestChangeEmailAndPhone(t *testing.T) {
	e := newEnv(t)
	e.registerEmail(t, "old@example.com", "secret123")
	m := e.login(t, Account{Email: "old@example.com"}, "secret123")
	wantCode(t, e.svc.SendEmailCode(ctx, m, "old@example.com", OpChangeTarget), apperr.CodeSameTarget)
	wantCode(t, e.svc.SendEmailCode(ctx, m, "new@example.com", OpChangeTarget), "")
	wantCode(t, e.svc.SendEmailCode(ctx, m, "", SensitiveEmailOp), "")
	own := Codes{Email: e.box.last("old@example.com", SensitiveEmailOp)}
	_, err := e.svc.ChangeEmail(ctx, m, EmailChange{Email: "new@example.com", NewCode: "000000", Codes: own})
	wantCode(t, err, apperr.CodeVerifyCodeWrong)
	_, err = e.svc.ChangeEmail(ctx, m, EmailChange{Email: "new@example.com", NewCode: e.box.last("new@example.com", OpChangeTarget), Codes: own})
	wantCode(t, err, "")
	_, err = e.svc.Login(ctx, meta("1.1.1.1"), Account{Email: "old@example.com"}, "secret123")
	wantCode(t, err, apperr.CodeBadCredentials)
	e.login(t, Account{Email: "new@example.com"}, "secret123")
	// The old address is free again.
	e.registerEmail(t, "old@example.com", "secret123")

	wantCode(t, e.svc.UpdateMobile(ctx, m, "976", "99000001", "123456", ""), apperr.CodePhoneNotBound)
	wantCode(t, e.svc.SendSMSCode(ctx, m, "976", "99000001", OpBindPhone), "")
	wantCode(t, e.svc.BindMobile(ctx, m, "976", "99000001", e.box.last("+97699000001", OpBindPhone), ""), "")
	wantCode(t, e.svc.BindMobile(ctx, m, "976", "99000002", "123456", ""), apperr.CodePhoneAlreadyBound)
	wantCode(t, e.svc.SendSMSCode(ctx, m, "976", "99000002", OpChangeTarget), "")
	wantCode(t, e.svc.UpdateMobile(ctx, m, "976", "99000002", e.box.last("+97699000002", OpChangeTarget), ""), "")
	info, _ := e.svc.UserInfo(ctx, m)
	if info.MobileNumber != "99000002" || info.Email != "new@example.com" {
		t.Fatalf("info %+v", info)
	}
	sh, _ := e.svc.SettingHistory(ctx, m, 1, 10)
	if sh.Count != 4 {
		t.Fatalf("setting history count %d, want 4 (register, e-mail, bind, change)", sh.Count)
	}
	// The old number is free again.
	if _, err := e.svc.st.Get(ctx, store.Key{PK: "PHONE#+976#99000001", SK: "UNIQUE"}); err == nil {
		t.Fatal("old phone still reserved")
	}
}

func TestCloseMobileCheckNeedsGoogleWhenOn(t *testing.T) {
	e := newEnv(t)
	e.registerEmail(t, "cm@example.com", "secret123")
	m := e.login(t, Account{Email: "cm@example.com"}, "secret123")
	wantCode(t, e.svc.OpenMobileCheck(ctx, m, "123456"), apperr.CodePhoneNotBound)
	wantCode(t, e.svc.SendSMSCode(ctx, m, "976", "95000000", OpBindPhone), "")
	wantCode(t, e.svc.BindMobile(ctx, m, "976", "95000000", e.box.last("+97695000000", OpBindPhone), ""), "")
	wantCode(t, e.svc.SendSMSCode(ctx, m, "", "", OpSecurity), "")
	wantCode(t, e.svc.OpenMobileCheck(ctx, m, e.box.last("+97695000000", OpSecurity)), "")
	setup, _ := e.svc.GoogleSetupStart(ctx, m)
	wantCode(t, e.svc.GoogleEnable(ctx, m, totpNow(t, setup.Secret, e.clock.Now()), "secret123"), "")
	e.clock.Add(CodeResend)
	wantCode(t, e.svc.SendSMSCode(ctx, m, "", "", OpSecurity), "")
	sms := e.box.last("+97695000000", OpSecurity)
	wantCode(t, e.svc.CloseMobileCheck(ctx, m, sms, ""), apperr.CodeGoogleCodeRequired)
	wantCode(t, e.svc.CloseMobileCheck(ctx, m, sms, totpNow(t, setup.Secret, e.clock.Now())), "")
	wantCode(t, e.svc.CloseMobileCheck(ctx, m, sms, ""), apperr.CodeMobileCheckAlreadyOff)
	// Closing Google now needs no SMS code (mobile check off).
	e.clock.Add(30 * time.Second)
	wantCode(t, e.svc.GoogleDisable(ctx, m, totpNow(t, setup.Secret, e.clock.Now()), ""), "")
}

func TestPasswordHashing(t *testing.T) {
	h, err := hashPassword("secret123", *cheapPasswords)
	if err != nil {
		t.Fatal(err)
	}
	h2, _ := hashPassword("secret123", *cheapPasswords)
	if h == h2 {
		t.Fatal("same hash twice: salt not random")
	}
	if !checkPassword(h, "secret123") || checkPassword(h, "secret124") || checkPassword("garbage", "secret123") {
		t.Fatal("checkPassword wrong")
	}
}

func TestSecretBox(t *testing.T) {
	b := newSecretBox([]byte("k"))
	sealed := b.seal("JBSWY3DPEHPK3PXP")
	if strings.Contains(sealed, "JBSWY3DP") {
		t.Fatal("not sealed")
	}
	if got, err := b.open(sealed); err != nil || got != "JBSWY3DPEHPK3PXP" {
		t.Fatalf("open: %q %v", got, err)
	}
	if _, err := newSecretBox([]byte("other")).open(sealed); err == nil {
		t.Fatal("opened with the wrong key")
	}
	plain := newSecretBox(nil)
	if got, _ := plain.open(plain.seal("abc")); got != "abc" {
		t.Fatal("plain round trip")
	}
}

func TestLoadOrCreateKey(t *testing.T) {
	path := t.TempDir() + "/sub/auth.key"
	k1, err := LoadOrCreateKey(path)
	if err != nil || len(k1) != 32 {
		t.Fatalf("create: %x %v", k1, err)
	}
	k2, err := LoadOrCreateKey(path)
	if err != nil || string(k1) != string(k2) {
		t.Fatal("key not stable across loads")
	}
	b := newSecretBox(k1)
	if got, err := newSecretBox(k2).open(b.seal("s")); err != nil || got != "s" {
		t.Fatal("reloaded key does not open sealed secrets")
	}
}

// A browser that signed in to an account is a trusted device of it: others
// locking the account out do not lock it, and its own failures lock only it.
func TestTrustedDeviceSignsInWhileTheAccountIsLocked(t *testing.T) {
	e := newEnv(t)
	e.registerEmail(t, "owner@example.com", "secret123")
	e.registerEmail(t, "other@example.com", "secret456")
	acct := Account{Email: "owner@example.com"}
	res, err := e.svc.Login(ctx, meta("5.5.5.5"), acct, "secret123")
	wantCode(t, err, "")
	if len(res.DeviceToken) != 64 {
		t.Fatalf("device token %q", res.DeviceToken)
	}
	dev := meta("5.5.5.5")
	dev.DeviceToken = res.DeviceToken
	// Signing in again on the trusted device issues no new token.
	again, err := e.svc.Login(ctx, dev, acct, "secret123")
	wantCode(t, err, "")
	if again.DeviceToken != "" {
		t.Fatalf("a trusted device got a new token %q", again.DeviceToken)
	}
	// Someone else locks the account.
	for i := 0; i < 5; i++ {
		_, _ = e.svc.Login(ctx, meta("6.6.6.6"), acct, "guess-1234")
	}
	_, err = e.svc.Login(ctx, meta("5.5.5.5"), acct, "secret123")
	wantCode(t, err, apperr.CodeAccountLocked)
	// The owner's device still signs in.
	_, err = e.svc.Login(ctx, dev, acct, "secret123")
	wantCode(t, err, "")
	// The token of one account is no pass for another.
	other := meta("5.5.5.5")
	other.DeviceToken = res.DeviceToken
	for i := 0; i < 5; i++ {
		_, _ = e.svc.Login(ctx, meta("7.7.7.7"), Account{Email: "other@example.com"}, "guess-1234")
	}
	_, err = e.svc.Login(ctx, other, Account{Email: "other@example.com"}, "secret456")
	wantCode(t, err, apperr.CodeAccountLocked)
	// Wrong passwords on the device lock the device, like an account.
	for i := 0; i < 4; i++ {
		_, err = e.svc.Login(ctx, dev, acct, "wrongpass1")
		wantCode(t, err, apperr.CodeBadCredentials)
	}
	_, err = e.svc.Login(ctx, dev, acct, "wrongpass1")
	wantCode(t, err, apperr.CodeAccountLocked)
	_, err = e.svc.Login(ctx, dev, acct, "secret123")
	wantCode(t, err, apperr.CodeAccountLocked)
	// A device stays trusted for DeviceTTL.
	e.clock.Add(DeviceTTL + time.Minute)
	for i := 0; i < 5; i++ {
		_, _ = e.svc.Login(ctx, meta("6.6.6.7"), acct, "guess-1234")
	}
	_, err = e.svc.Login(ctx, dev, acct, "secret123")
	wantCode(t, err, apperr.CodeAccountLocked)
}

// The add-address modal (operationType 11) unlocks its send button after
// 60 s (spec §4); the server lets it send then. Other operations keep 90 s.
func TestSecurityCodeResendsAfter60s(t *testing.T) {
	e := newEnv(t)
	e.registerEmail(t, "sec@example.com", "secret123")
	m := e.login(t, Account{Email: "sec@example.com"}, "secret123")
	wantCode(t, e.svc.SendSMSCode(ctx, m, "976", "95000001", OpBindPhone), "")
	wantCode(t, e.svc.BindMobile(ctx, m, "976", "95000001", e.box.last("+97695000001", OpBindPhone), ""), "")
	wantCode(t, e.svc.SendSMSCode(ctx, m, "", "", OpSecurity), "")
	wantCode(t, e.svc.SendSMSCode(ctx, m, "", "", OpTradePassword), "")
	e.clock.Add(59 * time.Second)
	err := e.svc.SendSMSCode(ctx, m, "", "", OpSecurity)
	wantCode(t, err, apperr.CodeCodeResendWait)
	if ra := apperr.As(err).Data.(retryData).RetryAfter; ra != 1 {
		t.Fatalf("retryAfter %d, want 1", ra)
	}
	e.clock.Add(time.Second)
	wantCode(t, e.svc.SendSMSCode(ctx, m, "", "", OpSecurity), "")
	wantCode(t, e.svc.SendSMSCode(ctx, m, "", "", OpTradePassword), apperr.CodeCodeResendWait)
}
