package auth

import (
	"context"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
	qrcode "github.com/skip2/go-qrcode"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

const totpPeriod = 30

var totpOpts = totp.ValidateOpts{Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}

// matchTOTP returns the time step (±1 step of skew) whose code equals code,
// or ok false.
func matchTOTP(secret, code string, now time.Time) (step int64, ok bool) {
	if len(code) != 6 || !allDigits(code) {
		return 0, false
	}
	cur := now.Unix() / totpPeriod
	for _, st := range []int64{cur - 1, cur, cur + 1} {
		want, err := totp.GenerateCodeCustom(secret, time.Unix(st*totpPeriod, 0), totpOpts)
		if err == nil && subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			return st, true
		}
	}
	return 0, false
}

// checkTOTP verifies a code of the user's active (or, with pending, pending)
// secret, counts wrong codes towards a lock-out, and records the accepted
// step so the same code is never accepted twice.
func (s *Service) checkTOTP(ctx context.Context, u User, code string, pending bool) error {
	step, err := s.matchUserTOTP(ctx, u, code, pending)
	if err != nil {
		return err
	}
	use := totpStepOp(u.ID, step)
	_, err = s.st.Update(ctx, use.Key, use.Update, use.Cond)
	if errors.Is(err, store.ErrConditionFailed) {
		return apperr.New(apperr.CodeGoogleCodeUsed)
	}
	if err != nil {
		return internal(err)
	}
	s.totpAccepted(ctx, u.ID)
	return nil
}

// matchUserTOTP checks a code of the user's active (or pending) secret
// without using it up: it returns the code's time step, or the error to
// answer (a wrong code counts towards the lock-out).
func (s *Service) matchUserTOTP(ctx context.Context, u User, code string, pending bool) (int64, error) {
	if code == "" {
		return 0, apperr.New(apperr.CodeGoogleCodeRequired)
	}
	lockKey := totpLockKey(u.ID)
	d, err := s.limiter.Check(ctx, lockKey)
	if err != nil {
		return 0, internal(err)
	}
	if !d.Allowed {
		return 0, limited(apperr.CodeAccountLocked, d)
	}
	sealed := u.GoogleSecret
	if pending {
		sealed = u.GooglePending
	}
	if sealed == "" {
		return 0, apperr.New(apperr.CodeGoogleNotSetUp)
	}
	secret, err := s.box.open(sealed)
	if err != nil {
		return 0, internal(err)
	}
	step, ok := matchTOTP(secret, code, s.now())
	if !ok {
		d, err := s.limiter.Fail(ctx, lockKey, s.limits.TOTPFailures, s.limits.LoginWindow)
		if err != nil {
			return 0, internal(err)
		}
		if !d.Allowed {
			return 0, limited(apperr.CodeAccountLocked, d)
		}
		return 0, apperr.New(apperr.CodeGoogleCodeWrong)
	}
	if step <= u.TOTPStep {
		return 0, apperr.New(apperr.CodeGoogleCodeUsed)
	}
	return step, nil
}

// totpStepOp records an accepted time step, on condition that no later or
// equal step was accepted meanwhile: the same code is never accepted twice.
func totpStepOp(uid string, step int64) store.Op {
	return store.UpdateOp(profileKey(uid), store.NewUpdate().Set(attrTOTPStep, step),
		store.And(store.ItemExists(), store.Or(store.NotExists(attrTOTPStep), store.Compare(attrTOTPStep, store.CmpLt, step))))
}

func totpLockKey(uid string) string { return "totp:" + uid }

// totpAccepted clears the wrong-code count after an accepted code.
func (s *Service) totpAccepted(ctx context.Context, uid string) {
	_ = s.limiter.Reset(ctx, totpLockKey(uid))
}

// checkGoogleIfOn requires and checks a Google code when the user has the
// authenticator on.
func (s *Service) checkGoogleIfOn(ctx context.Context, u User, code string) error {
	if !u.GoogleOn {
		return nil
	}
	return s.checkTOTP(ctx, u, code, false)
}

// GoogleSetup is the answer of toopen_google_authenticator.
type GoogleSetup struct {
	Secret     string `json:"secret" doc:"base32 secret to type into the app"`
	OtpauthURI string `json:"otpauthUri"`
	QRCode     string `json:"qrCode" doc:"PNG data URL of the otpauth URI"`
}

// GoogleSetupStart creates a pending authenticator secret.
func (s *Service) GoogleSetupStart(ctx context.Context, m Meta) (GoogleSetup, error) {
	u, err := s.getUser(ctx, m.UserID)
	if err != nil {
		return GoogleSetup{}, err
	}
	if u.GoogleOn {
		return GoogleSetup{}, apperr.New(apperr.CodeGoogleAlreadyOn)
	}
	name := u.Email
	if name == "" {
		name = "+" + u.CountryCode + u.Mobile
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: s.issuer, AccountName: name, Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		return GoogleSetup{}, internal(err)
	}
	png, err := qrcode.Encode(key.URL(), qrcode.Medium, 256)
	if err != nil {
		return GoogleSetup{}, internal(err)
	}
	_, err = s.st.Update(ctx, profileKey(u.ID), store.NewUpdate().Set(attrGooglePend, s.box.seal(key.Secret())),
		store.And(store.ItemExists(), store.Or(store.NotExists(attrGoogle), store.Eq(attrGoogle, 0))))
	if errors.Is(err, store.ErrConditionFailed) {
		return GoogleSetup{}, apperr.New(apperr.CodeGoogleAlreadyOn)
	}
	if err != nil {
		return GoogleSetup{}, internal(err)
	}
	return GoogleSetup{
		Secret: key.Secret(), OtpauthURI: key.URL(),
		QRCode: "data:image/png;base64," + base64.StdEncoding.EncodeToString(png),
	}, nil
}

// GoogleEnable turns the authenticator on with a code of the pending secret
// and the login password.
func (s *Service) GoogleEnable(ctx context.Context, m Meta, code, password string) error {
	u, err := s.getUser(ctx, m.UserID)
	if err != nil {
		return err
	}
	if u.GoogleOn {
		return apperr.New(apperr.CodeGoogleAlreadyOn)
	}
	if u.GooglePending == "" {
		return apperr.New(apperr.CodeGoogleNotSetUp)
	}
	if err := s.checkUserPassword(ctx, u, password); err != nil {
		return err
	}
	if err := s.checkTOTP(ctx, u, code, true); err != nil {
		return err
	}
	hist, err := s.historyOp(ctx, u.ID, histSetting, actGoogleOn, m)
	if err != nil {
		return err
	}
	upd := store.NewUpdate().Set(attrGoogle, 1).Set(attrGoogleSecret, u.GooglePending).Remove(attrGooglePend)
	err = s.st.Transact(ctx, []store.Op{
		store.UpdateOp(profileKey(u.ID), upd, store.Eq(attrGooglePend, u.GooglePending)),
		hist,
	})
	if errors.Is(err, store.ErrConditionFailed) {
		return apperr.New(apperr.CodeGoogleNotSetUp)
	}
	return internalOrNil(err)
}

// GoogleDisable turns the authenticator off with a current code, plus an SMS
// code (operationType 11) when the mobile check is on.
func (s *Service) GoogleDisable(ctx context.Context, m Meta, code, smsCode string) error {
	u, err := s.getUser(ctx, m.UserID)
	if err != nil {
		return err
	}
	if !u.GoogleOn {
		return apperr.New(apperr.CodeGoogleNotSetUp)
	}
	var ops []store.Op
	if u.MobileCheck {
		if smsCode == "" {
			return apperr.New(apperr.CodeSMSCodeRequired)
		}
		ph, ok := u.phone()
		if !ok {
			return apperr.New(apperr.CodePhoneNotBound)
		}
		del, err := s.checkCode(ctx, ph, OpSecurity, smsCode)
		if err != nil {
			return err
		}
		ops = append(ops, del)
	}
	if err := s.checkTOTP(ctx, u, code, false); err != nil {
		return err
	}
	hist, err := s.historyOp(ctx, u.ID, histSetting, actGoogleOff, m)
	if err != nil {
		return err
	}
	upd := store.NewUpdate().Set(attrGoogle, 0).Remove(attrGoogleSecret)
	ops = append(ops, store.UpdateOp(profileKey(u.ID), upd, store.Eq(attrGoogle, 1)), hist)
	return s.commit(ctx, ops, apperr.New(apperr.CodeCodeExpired))
}

// commit runs a transaction; a failed condition becomes onConflict.
func (s *Service) commit(ctx context.Context, ops []store.Op, onConflict error) error {
	err := s.st.Transact(ctx, ops)
	if errors.Is(err, store.ErrConditionFailed) {
		return onConflict
	}
	return internalOrNil(err)
}

func internalOrNil(err error) error {
	if err == nil {
		return nil
	}
	return internal(err)
}
