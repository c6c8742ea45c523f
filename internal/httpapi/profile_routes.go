package httpapi

import (
	"context"

	"tenger/internal/apperr"
	"tenger/internal/auth"
)

// Profile service routes (accounts and sign-in), per the auth API contract.

// AccountFields name an account by e-mail or by country code and mobile number.
type AccountFields struct {
	Email        string     `json:"email" doc:"e-mail address; or give countryCode and mobileNumber"`
	CountryCode  FlexString `json:"countryCode" doc:"country calling code without +, e.g. 976"`
	MobileNumber FlexString `json:"mobileNumber" doc:"mobile number, digits"`
}

func (a AccountFields) account() auth.Account {
	return auth.Account{Email: a.Email, CountryCode: a.CountryCode.String(), Mobile: a.MobileNumber.String()}
}

func (a AccountFields) check() error {
	if len(a.Email) > 254 || len(a.CountryCode) > 8 || len(a.MobileNumber) > 32 {
		return apperr.Param("email, countryCode or mobileNumber too long")
	}
	return nil
}

// passwordField bounds a password before it reaches argon2.
func passwordField(name, v string) error {
	if len(v) > 128 {
		return apperr.Param(name + ": too long")
	}
	return nil
}

// codeField bounds a verification code field (its format is the domain's).
// tokenField bounds a challenge or reset token (64 hex characters when real).
func tokenField(v string) error {
	if len(v) > 128 {
		return apperr.Param("token: too long")
	}
	return nil
}

func codeField(name string, v FlexString) error {
	if len(v) > 16 {
		return apperr.Param(name + ": must be a 6-digit code")
	}
	return nil
}

// namedCode is a verification code field of a request.
type namedCode struct {
	name string
	v    FlexString
}

// codeFields bounds several code fields (codeField each).
func codeFields(fields ...namedCode) error {
	for _, f := range fields {
		if err := codeField(f.name, f.v); err != nil {
			return err
		}
	}
	return nil
}

// EmailCodeReq asks for a code by e-mail.
type EmailCodeReq struct {
	Email         string  `json:"email" doc:"target address; empty for the signed-in user's own address"`
	OperationType FlexInt `json:"operationType" v:"required" doc:"1 register, 3 forgot password, 5 change e-mail, 6, 10, 11, 17 own-address operations"`
}

// Validate bounds the fields.
func (r *EmailCodeReq) Validate() error {
	if len(r.Email) > 254 {
		return apperr.Param("email: too long")
	}
	return nil
}

// SMSCodeReq asks for a code by SMS.
type SMSCodeReq struct {
	CountryCode   FlexString `json:"countryCode" doc:"empty with mobileNumber for the signed-in user's bound phone"`
	MobileNumber  FlexString `json:"mobileNumber"`
	SmsType       FlexString `json:"smsType" doc:"accepted for compatibility ('0')"`
	OperationType FlexInt    `json:"operationType" v:"required" doc:"1 register, 3 forgot password, 4 bind phone, 5 change phone, 6, 10, 11, 28 own-phone operations"`
}

// Validate bounds the fields.
func (r *SMSCodeReq) Validate() error {
	return AccountFields{CountryCode: r.CountryCode, MobileNumber: r.MobileNumber}.check()
}

// RegisterReq is a sign-up.
type RegisterReq struct {
	AccountFields
	LoginPword  string     `json:"loginPword" v:"required" doc:"8-32 characters with letters and digits"`
	Code        FlexString `json:"code" v:"required" doc:"6-digit code of operationType 1"`
	InvitedCode FlexString `json:"invitedCode" doc:"optional referral code"`
}

// Validate bounds the fields.
func (r *RegisterReq) Validate() error {
	if err := r.check(); err != nil {
		return err
	}
	if err := passwordField("loginPword", r.LoginPword); err != nil {
		return err
	}
	if len(r.InvitedCode) > 32 {
		return apperr.Param("invitedCode: at most 32 characters")
	}
	return codeField("code", r.Code)
}

// RegisterResp is the new account's id.
type RegisterResp struct {
	UID string `json:"uid"`
}

// LoginReq signs in.
type LoginReq struct {
	AccountFields
	LoginPword string `json:"loginPword" v:"required"`
}

// Validate bounds the fields.
func (r *LoginReq) Validate() error {
	if err := r.check(); err != nil {
		return err
	}
	return passwordField("loginPword", r.LoginPword)
}

// LoginResp is a session token, or a challenge {type, token} to finish with confirm_login.
type LoginResp struct {
	Token string `json:"token" doc:"session token, or the challenge token when type is set"`
	Type  string `json:"type,omitempty" doc:"google or mobile when a second step is needed"`
}

// ConfirmLoginReq finishes a challenged sign-in.
type ConfirmLoginReq struct {
	Token    string     `json:"token" v:"required" doc:"challenge token from login_in"`
	AuthCode FlexString `json:"authCode" v:"required" doc:"Google authenticator code or SMS code (operationType 25)"`
}

// Validate bounds the fields.
func (r *ConfirmLoginReq) Validate() error {
	if err := tokenField(r.Token); err != nil {
		return err
	}
	return codeField("authCode", r.AuthCode)
}

// AuthenticatorResetSendReq asks for the codes that reset a lost
// authenticator at sign-in.
type AuthenticatorResetSendReq struct {
	Token string `json:"token" v:"required" doc:"challenge token (type google) from login_in"`
}

// Validate bounds the fields.
func (r *AuthenticatorResetSendReq) Validate() error { return tokenField(r.Token) }

// AuthenticatorResetReq resets a lost authenticator with the e-mail and SMS codes.
type AuthenticatorResetReq struct {
	Token     string     `json:"token" v:"required" doc:"challenge token (type google) from login_in"`
	EmailCode FlexString `json:"emailCode" v:"required" doc:"code sent to the account's e-mail (operationType 29)"`
	SmsCode   FlexString `json:"smsAuthCode" v:"required" doc:"code sent to the account's phone (operationType 29)"`
}

// Validate bounds the fields.
func (r *AuthenticatorResetReq) Validate() error {
	if err := tokenField(r.Token); err != nil {
		return err
	}
	if err := codeField("emailCode", r.EmailCode); err != nil {
		return err
	}
	return codeField("smsAuthCode", r.SmsCode)
}

// ResetStartReq is step one of the forgotten-password flow.
type ResetStartReq struct {
	AccountFields
}

// Validate bounds the fields.
func (r *ResetStartReq) Validate() error { return r.check() }

// ResetVerifyReq is step two.
type ResetVerifyReq struct {
	AccountFields
	Code FlexString `json:"code" v:"required" doc:"6-digit code of operationType 3"`
}

// Validate bounds the fields.
func (r *ResetVerifyReq) Validate() error {
	if err := r.check(); err != nil {
		return err
	}
	return codeField("code", r.Code)
}

// ResetTokenResp carries the reset token of step two.
type ResetTokenResp struct {
	Token string `json:"token" doc:"reset token for step three (10 minutes, single use)"`
}

// ResetFinishReq is step three.
type ResetFinishReq struct {
	Token      string `json:"token" v:"required"`
	LoginPword string `json:"loginPword" v:"required" doc:"the new password"`
}

// Validate bounds the fields.
func (r *ResetFinishReq) Validate() error {
	if err := tokenField(r.Token); err != nil {
		return err
	}
	return passwordField("loginPword", r.LoginPword)
}

// GoogleVerifyReq turns the authenticator on.
type GoogleVerifyReq struct {
	GoogleCode FlexString `json:"googleCode" v:"required"`
	LoginPwd   string     `json:"loginPwd" v:"required"`
}

// Validate bounds the fields.
func (r *GoogleVerifyReq) Validate() error {
	if err := passwordField("loginPwd", r.LoginPwd); err != nil {
		return err
	}
	return codeField("googleCode", r.GoogleCode)
}

// CloseGoogleReq turns the authenticator off.
type CloseGoogleReq struct {
	GoogleCode  FlexString `json:"googleCode" v:"required"`
	SmsAuthCode FlexString `json:"smsAuthCode" doc:"required when the SMS check is on (operationType 11)"`
}

// Validate bounds the fields.
func (r *CloseGoogleReq) Validate() error {
	if err := codeField("googleCode", r.GoogleCode); err != nil {
		return err
	}
	return codeField("smsAuthCode", r.SmsAuthCode)
}

// MobileReq binds or changes the phone number.
type MobileReq struct {
	CountryCode  FlexString `json:"countryCode" v:"required"`
	MobileNumber FlexString `json:"mobileNumber" v:"required"`
	SmsAuthCode  FlexString `json:"smsAuthCode" v:"required" doc:"code sent to the new number (operationType 4 to bind, 5 to change)"`
	GoogleCode   FlexString `json:"googleCode" doc:"required when the Google authenticator is on"`
}

// Validate bounds the fields.
func (r *MobileReq) Validate() error {
	if err := (AccountFields{CountryCode: r.CountryCode, MobileNumber: r.MobileNumber}).check(); err != nil {
		return err
	}
	if err := codeField("smsAuthCode", r.SmsAuthCode); err != nil {
		return err
	}
	return codeField("googleCode", r.GoogleCode)
}

// OpenMobileReq turns the SMS check on.
type OpenMobileReq struct {
	SmsAuthCode FlexString `json:"smsAuthCode" v:"required" doc:"code sent to the bound phone (operationType 11)"`
}

// Validate bounds the fields.
func (r *OpenMobileReq) Validate() error { return codeField("smsAuthCode", r.SmsAuthCode) }

// CloseMobileReq turns the SMS check off.
type CloseMobileReq struct {
	SmsAuthCode FlexString `json:"smsAuthCode" v:"required" doc:"code sent to the bound phone (operationType 11)"`
	GoogleCode  FlexString `json:"googleCode" doc:"required when the Google authenticator is on"`
}

// Validate bounds the fields.
func (r *CloseMobileReq) Validate() error {
	if err := codeField("smsAuthCode", r.SmsAuthCode); err != nil {
		return err
	}
	return codeField("googleCode", r.GoogleCode)
}

// PasswordUpdateReq changes the password.
type PasswordUpdateReq struct {
	LoginPword    string     `json:"loginPword" v:"required" doc:"the current password"`
	NewLoginPword string     `json:"newLoginPword" v:"required" doc:"8-32 characters with letters and digits"`
	GoogleCode    FlexString `json:"googleCode" doc:"required when the Google authenticator is on"`
}

// Validate bounds the fields.
func (r *PasswordUpdateReq) Validate() error {
	if err := passwordField("loginPword", r.LoginPword); err != nil {
		return err
	}
	if err := passwordField("newLoginPword", r.NewLoginPword); err != nil {
		return err
	}
	return codeField("googleCode", r.GoogleCode)
}

// NicknameReq sets the nickname.
type NicknameReq struct {
	NickName string `json:"nickName" v:"required" doc:"1-32 characters"`
}

// Validate bounds the field.
func (r *NicknameReq) Validate() error {
	if len(r.NickName) > 256 {
		return apperr.Param("nickName: too long")
	}
	return nil
}

// HistoryReq pages a history.
type HistoryReq struct {
	Page     FlexInt `json:"page" doc:"1-based, default 1"`
	PageSize FlexInt `json:"pageSize" doc:"1-100, default 10"`
}

// Validate checks the paging.
func (r *HistoryReq) Validate() error {
	return checkPaging(r.Page, r.PageSize, auth.MaxPageSize)
}

// sessionsOf adapts the profile service to SessionResolver (auth cannot
// import httpapi, which imports auth for these routes).
type sessionsOf struct{ svc *auth.Service }

func (s sessionsOf) ResolveSession(ctx context.Context, token string) (Principal, error) {
	sess, err := s.svc.Authenticate(ctx, token)
	if err != nil {
		return Principal{}, err
	}
	return Principal{UserID: sess.UserID, SessionID: sess.ID}, nil
}

// AuthSessions returns the SessionResolver every router should use: the
// profile service's sessions.
func AuthSessions(svc *auth.Service) SessionResolver { return sessionsOf{svc: svc} }

func metaOf(c *Call) auth.Meta {
	m := auth.Meta{IP: c.IP, Device: c.Device, UserAgent: c.Req.UserAgent(), Lang: c.Lang, UserID: c.Principal.UserID,
		SessionID: c.Principal.SessionID}
	if ck, err := c.Req.Cookie(CookieDevice); err == nil {
		m.DeviceToken = ck.Value
	}
	return m
}

// signedIn sets the cookies of a completed sign-in: the session, and the
// trusted-device token when the sign-in made the browser a trusted device.
func signedIn(c *Call, res auth.LoginResult) {
	setSession(c, res.Token)
	if res.DeviceToken != "" {
		c.SetCookie(CookieDevice, res.DeviceToken, auth.DeviceTTL, true)
	}
}

// setSession sets the session cookie and the anti-forgery token derived
// from the new session. The session cookie is not HttpOnly on purpose: the
// web app reads it to send the exchange-token header and the WebSocket auth
// frame (spec §7); the XSRF rule protects cookie-authenticated calls.
func setSession(c *Call, token string) {
	c.SetCookie(CookieToken, token, auth.SessionTTL, false)
	c.setXSRF(token)
}

// addCodeRoutes serves the send-code calls at emailPath and smsPath.
func addCodeRoutes(r *Router, svc *auth.Service, emailPath, smsPath string) {
	Handle(r, emailPath, RouteOpts{Summary: "Send a 6-digit code by e-mail (new code after 90 s, 60 s for operationType 11; valid 5 min)", Auth: Public},
		func(c *Call, req *EmailCodeReq) (Empty, error) {
			return Empty{}, svc.SendEmailCode(c.Ctx, metaOf(c), req.Email, int(req.OperationType.V))
		})
	Handle(r, smsPath, RouteOpts{Summary: "Send a 6-digit code by SMS (new code after 90 s, 60 s for operationType 11; valid 5 min)", Auth: Public},
		func(c *Call, req *SMSCodeReq) (Empty, error) {
			return Empty{}, svc.SendSMSCode(c.Ctx, metaOf(c), req.CountryCode.String(), req.MobileNumber.String(), int(req.OperationType.V))
		})
}

// NewProfileRouter serves accounts and sign-in under /fe-ex-api. When
// opts.Sessions is nil the service's own sessions are used.
func NewProfileRouter(svc *auth.Service, opts Options) *Router {
	if opts.Sessions == nil {
		opts.Sessions = AuthSessions(svc)
	}
	if opts.Service == "" {
		opts.Service = "profile"
	}
	r := NewRouter(opts)
	pub := func(s string) RouteOpts { return RouteOpts{Summary: s, Auth: Public} }
	priv := func(s string) RouteOpts { return RouteOpts{Summary: s, Auth: Private} }

	addCodeRoutes(r, svc, "/fe-ex-api/v4/common/emailValidCode", "/fe-ex-api/v4/common/smsValidCode")
	Handle(r, "/fe-ex-api/user/register", pub("Create an account with the code of operationType 1"),
		func(c *Call, req *RegisterReq) (RegisterResp, error) {
			uid, err := svc.Register(c.Ctx, metaOf(c), auth.RegisterInput{
				Account: req.account(), Password: req.LoginPword, Code: req.Code.String(), InvitedCode: req.InvitedCode.String(),
			})
			return RegisterResp{UID: uid}, err
		})
	Handle(r, "/fe-ex-api/user/login_in", pub("Sign in; answers a session token (cookie set) or a google/mobile challenge"),
		func(c *Call, req *LoginReq) (*LoginResp, error) {
			res, err := svc.Login(c.Ctx, metaOf(c), req.account(), req.LoginPword)
			if err != nil {
				return nil, err
			}
			if res.ChallengeType == "" {
				signedIn(c, res)
			}
			return &LoginResp{Token: res.Token, Type: res.ChallengeType}, nil
		})
	Handle(r, "/fe-ex-api/user/confirm_login", pub("Finish a challenged sign-in with the Google or SMS code"),
		func(c *Call, req *ConfirmLoginReq) (*LoginResp, error) {
			res, err := svc.ConfirmLogin(c.Ctx, metaOf(c), req.Token, req.AuthCode.String())
			if err != nil {
				return nil, err
			}
			signedIn(c, res)
			return &LoginResp{Token: res.Token}, nil
		})
	Handle(r, "/fe-ex-api/user/authenticator_reset/send_codes",
		pub("Lost authenticator at sign-in: send a code (operationType 29) to the account's e-mail and phone"),
		func(c *Call, req *AuthenticatorResetSendReq) (*auth.ResetTargets, error) {
			t, err := svc.SendAuthenticatorResetCodes(c.Ctx, metaOf(c), req.Token)
			if err != nil {
				return nil, err
			}
			return &t, nil
		})
	Handle(r, "/fe-ex-api/user/authenticator_reset/confirm",
		pub("Lost authenticator at sign-in: turn it off with both codes, lock withdrawals for 24 h, and sign in"),
		func(c *Call, req *AuthenticatorResetReq) (*LoginResp, error) {
			res, err := svc.ResetAuthenticator(c.Ctx, metaOf(c), req.Token, req.EmailCode.String(), req.SmsCode.String())
			if err != nil {
				return nil, err
			}
			signedIn(c, res)
			return &LoginResp{Token: res.Token}, nil
		})
	Handle(r, "/fe-ex-api/user/login_out", pub("Sign out: revoke the session and clear the cookie"),
		func(c *Call, _ *Empty) (Empty, error) {
			c.SetCookie(CookieToken, "", -1, false)
			c.SetCookie(CookieXSRF, "", -1, false)
			return Empty{}, svc.Logout(c.Ctx, metaOf(c))
		})
	Handle(r, "/fe-ex-api/common/user_info", priv("The signed-in user's fields"),
		func(c *Call, _ *Empty) (*auth.UserInfo, error) {
			info, err := svc.UserInfo(c.Ctx, metaOf(c))
			if err != nil {
				return nil, err
			}
			return &info, nil
		})
	Handle(r, "/fe-ex-api/user/reset_password_step_one", pub("Forgot password 1/3: send a code (operationType 3)"),
		func(c *Call, req *ResetStartReq) (Empty, error) {
			return Empty{}, svc.ResetStart(c.Ctx, metaOf(c), req.account())
		})
	Handle(r, "/fe-ex-api/user/reset_password_step_two", pub("Forgot password 2/3: check the code, get a reset token"),
		func(c *Call, req *ResetVerifyReq) (*ResetTokenResp, error) {
			tok, err := svc.ResetVerify(c.Ctx, metaOf(c), req.account(), req.Code.String())
			if err != nil {
				return nil, err
			}
			return &ResetTokenResp{Token: tok}, nil
		})
	Handle(r, "/fe-ex-api/user/reset_password_step_three", pub("Forgot password 3/3: set the new password; every session ends"),
		func(c *Call, req *ResetFinishReq) (Empty, error) {
			return Empty{}, svc.ResetFinish(c.Ctx, metaOf(c), req.Token, req.LoginPword)
		})
	Handle(r, "/fe-ex-api/user/toopen_google_authenticator", priv("Start Google authenticator set-up: secret, otpauth URI, QR code"),
		func(c *Call, _ *Empty) (*auth.GoogleSetup, error) {
			g, err := svc.GoogleSetupStart(c.Ctx, metaOf(c))
			if err != nil {
				return nil, err
			}
			return &g, nil
		})
	Handle(r, "/fe-ex-api/user/google_verify", priv("Turn the Google authenticator on"),
		func(c *Call, req *GoogleVerifyReq) (Empty, error) {
			return Empty{}, svc.GoogleEnable(c.Ctx, metaOf(c), req.GoogleCode.String(), req.LoginPwd)
		})
	Handle(r, "/fe-ex-api/user/close_google_verify", priv("Turn the Google authenticator off"),
		func(c *Call, req *CloseGoogleReq) (Empty, error) {
			return Empty{}, svc.GoogleDisable(c.Ctx, metaOf(c), req.GoogleCode.String(), req.SmsAuthCode.String())
		})
	Handle(r, "/fe-ex-api/user/mobile_bind_save", priv("Bind a phone number (SMS code of operationType 4)"),
		func(c *Call, req *MobileReq) (Empty, error) {
			return Empty{}, svc.BindMobile(c.Ctx, metaOf(c), req.CountryCode.String(), req.MobileNumber.String(), req.SmsAuthCode.String(), req.GoogleCode.String())
		})
	Handle(r, "/fe-ex-api/user/mobile_update", priv("Change the phone number (SMS code of operationType 5 to the new number)"),
		func(c *Call, req *MobileReq) (Empty, error) {
			return Empty{}, svc.UpdateMobile(c.Ctx, metaOf(c), req.CountryCode.String(), req.MobileNumber.String(), req.SmsAuthCode.String(), req.GoogleCode.String())
		})
	addEmailUpdateRoute(r, svc) // account_routes.go
	Handle(r, "/fe-ex-api/user/open_mobile_verify", priv("Turn the SMS check on (operationType 11)"),
		func(c *Call, req *OpenMobileReq) (Empty, error) {
			return Empty{}, svc.OpenMobileCheck(c.Ctx, metaOf(c), req.SmsAuthCode.String())
		})
	Handle(r, "/fe-ex-api/user/close_mobile_verify", priv("Turn the SMS check off (operationType 11)"),
		func(c *Call, req *CloseMobileReq) (Empty, error) {
			return Empty{}, svc.CloseMobileCheck(c.Ctx, metaOf(c), req.SmsAuthCode.String(), req.GoogleCode.String())
		})
	Handle(r, "/fe-ex-api/user/password_update", priv("Change the password; every other session ends"),
		func(c *Call, req *PasswordUpdateReq) (Empty, error) {
			return Empty{}, svc.UpdatePassword(c.Ctx, metaOf(c), req.LoginPword, req.NewLoginPword, req.GoogleCode.String())
		})
	Handle(r, "/fe-ex-api/user/nickname_update", priv("Set the nickname"),
		func(c *Call, req *NicknameReq) (Empty, error) {
			return Empty{}, svc.UpdateNickname(c.Ctx, metaOf(c), req.NickName)
		})
	Handle(r, "/fe-ex-api/security/login_history", priv("Login history, newest first"),
		func(c *Call, req *HistoryReq) (*auth.HistoryPage, error) {
			p, err := svc.LoginHistory(c.Ctx, metaOf(c), int(req.Page.V), int(req.PageSize.V))
			if err != nil {
				return nil, err
			}
			return &p, nil
		})
	Handle(r, "/fe-ex-api/security/setting_history", priv("Security setting history, newest first"),
		func(c *Call, req *HistoryReq) (*auth.HistoryPage, error) {
			p, err := svc.SettingHistory(c.Ctx, metaOf(c), int(req.Page.V), int(req.PageSize.V))
			if err != nil {
				return nil, err
			}
			return &p, nil
		})
	return r
}
