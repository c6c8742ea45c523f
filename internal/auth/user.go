package auth

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// Profile attribute names (other services, such as KYC, update kycStatus,
// realName, firstName, lastName, country and accountType on the same item).
const (
	attrUID          = "uid"
	attrEmail        = "email"
	attrCountryCode  = "countryCode"
	attrMobile       = "mobileNumber"
	attrPwHash       = "pwHash"
	attrNickName     = "nickName"
	attrRealName     = "realName"
	attrFirstName    = "firstName"
	attrLastName     = "lastName"
	attrCountry      = "country"
	attrKYC          = "kycStatus"
	attrKYCLevel     = "kycLevel"
	attrKYCReason    = "kycRejectReason"
	attrAccountType  = "accountType"
	attrGoogle       = "googleStatus"
	attrGoogleSecret = "googleSecret"
	attrGooglePend   = "googlePending"
	attrMobileCheck  = "isOpenMobileCheck"
	attrSessGen      = "sessGen"
	attrTOTPStep     = "totpStep"
	attrInvited      = "invitedCode"
	attrCtime        = "ctime"
)

// Profile attributes the KYC service (internal/kyc) writes, in the same
// transaction as its own record of the user's verification.
const (
	// AttrKYCStatus is kycStatus: 0 unverified, 1 pending, 2 verified, 3 rejected.
	AttrKYCStatus = attrKYC
	// AttrKYCLevel is the verification level the user holds ("" when none).
	AttrKYCLevel = attrKYCLevel
	// AttrKYCRejectReason is the reviewer's reason shown to a rejected user.
	AttrKYCRejectReason = attrKYCReason
	// AttrRealName, AttrFirstName, AttrLastName and AttrCountry are filled
	// from the verified identity.
	AttrRealName  = attrRealName
	AttrFirstName = attrFirstName
	AttrLastName  = attrLastName
	AttrCountry   = attrCountry
)

// ProfileKey is the key of a user's profile item, for the services that
// update its attributes in their own transactions (internal/kyc).
func ProfileKey(uid string) store.Key { return profileKey(uid) }

// Account types.
const (
	AccountRegular    = "regular"
	AccountEnterprise = "enterprise"
)

// User is an account as stored.
type User struct {
	ID            string
	Email         string
	CountryCode   string
	Mobile        string
	PasswordHash  string
	NickName      string
	RealName      string
	FirstName     string
	LastName      string
	Country       string
	KYCStatus     int
	AccountType   string
	GoogleOn      bool
	GoogleSecret  string // sealed
	GooglePending string // sealed
	MobileCheck   bool
	SessGen       int64
	TOTPStep      int64
	CreatedMs     int64
	// CancelledMs is when the owner cancelled the account (Unix ms), 0
	// while it is open (cancel.go).
	CancelledMs int64
	// KYCLevel is the verification level held ("" when none) and
	// KYCRejectReason the reviewer's reason of a rejection (internal/kyc).
	KYCLevel, KYCRejectReason string
}

func profileKey(uid string) store.Key { return store.Key{PK: "USER#" + uid, SK: "PROFILE"} }

// AccountTypeOp is the transaction operation that sets uid's account type
// to accountType, for a service that changes it together with its own
// records in one transaction (corporate verification: an approval and
// the change back to a regular account), while the profile's layout stays
// this package's. The profile must exist; when from is not empty the type
// must also be from, so a change applies once and never over another.
// A profile stored before account types were kept counts as regular.
func AccountTypeOp(uid, accountType, from string) store.Op {
	cond := store.ItemExists()
	switch from {
	case "":
	case AccountRegular:
		cond = store.And(cond, store.Or(store.NotExists(attrAccountType), store.Eq(attrAccountType, AccountRegular)))
	default:
		cond = store.And(cond, store.Eq(attrAccountType, from))
	}
	return store.UpdateOp(profileKey(uid), store.NewUpdate().Set(attrAccountType, accountType), cond)
}

func userFromItem(it store.Item) User {
	u := User{
		ID: it.Str(attrUID), Email: it.Str(attrEmail), CountryCode: it.Str(attrCountryCode),
		Mobile: it.Str(attrMobile), PasswordHash: it.Str(attrPwHash), NickName: it.Str(attrNickName),
		RealName: it.Str(attrRealName), FirstName: it.Str(attrFirstName), LastName: it.Str(attrLastName),
		Country: it.Str(attrCountry), KYCStatus: int(it.Int(attrKYC)), AccountType: it.Str(attrAccountType),
		KYCLevel: it.Str(attrKYCLevel), KYCRejectReason: it.Str(attrKYCReason),
		GoogleOn: it.Int(attrGoogle) == 1, GoogleSecret: it.Str(attrGoogleSecret),
		GooglePending: it.Str(attrGooglePend), MobileCheck: it.Int(attrMobileCheck) == 1,
		SessGen: it.Int(attrSessGen), TOTPStep: it.Int(attrTOTPStep), CreatedMs: it.Int(attrCtime),
		CancelledMs: it.Int(attrCancelledAt),
	}
	if u.AccountType == "" {
		u.AccountType = AccountRegular
	}
	return u
}

// phone returns the bound phone as an identity (ok false when none).
func (u User) phone() (ident, bool) {
	if u.Mobile == "" {
		return ident{}, false
	}
	return ident{cc: u.CountryCode, num: u.Mobile}, true
}

// emailIdent returns the bound e-mail as an identity.
func (u User) emailIdent() (ident, bool) {
	if u.Email == "" {
		return ident{}, false
	}
	return ident{email: u.Email}, true
}

// getUser reads a profile; a missing one is CodeNotSignedIn (a session that
// outlived its account).
func (s *Service) getUser(ctx context.Context, uid string) (User, error) {
	if uid == "" {
		return User{}, apperr.New(apperr.CodeNotSignedIn)
	}
	it, err := s.st.Get(ctx, profileKey(uid))
	if errors.Is(err, store.ErrNotFound) {
		return User{}, apperr.New(apperr.CodeNotSignedIn)
	}
	if err != nil {
		return User{}, internal(err)
	}
	return userFromItem(it), nil
}

// userByIdent finds the account of an e-mail or phone; store.ErrNotFound when none.
func (s *Service) userByIdent(ctx context.Context, id ident) (User, error) {
	it, err := s.st.Get(ctx, id.uniqueKey())
	if err != nil {
		return User{}, err
	}
	p, err := s.st.Get(ctx, profileKey(it.Str(attrUID)))
	if err != nil {
		return User{}, err
	}
	return userFromItem(p), nil
}

// newUID returns an 8-digit numeric id (the bank deposit reference is the
// user id, so it must be short and numeric). Uniqueness comes from the
// ItemNotExists condition on the profile.
func newUID() string {
	n, err := rand.Int(rand.Reader, big.NewInt(90_000_000))
	if err != nil {
		panic("auth: no randomness: " + err.Error())
	}
	return fmt.Sprintf("%08d", n.Int64()+10_000_000)
}

// UserInfo is the user_info answer.
type UserInfo struct {
	ID                string `json:"id"`
	Email             string `json:"email"`
	RealName          string `json:"realName"`
	FirstName         string `json:"firstName"`
	LastName          string `json:"lastName"`
	NickName          string `json:"nickName"`
	IsOpenMobileCheck int    `json:"isOpenMobileCheck" doc:"1 when an SMS code is required"`
	GoogleStatus      int    `json:"googleStatus" doc:"1 when the Google authenticator is on"`
	MobileNumber      string `json:"mobileNumber"`
	CountryCode       string `json:"countryCode"`
	Country           string `json:"country"`
	KYCStatus         int    `json:"kycStatus" doc:"0 unverified, 1 pending, 2 verified, 3 rejected"`
	KYCLevel          string `json:"kycLevel" doc:"the verification level held (sumsub/v2/get_level_list names them); empty when none"`
	KYCRejectReason   string `json:"kycRejectReason,omitempty" doc:"the reviewer's reason when kycStatus is 3"`
	AccountType       string `json:"accountType" doc:"regular or enterprise"`
	Ctime             int64  `json:"ctime" doc:"creation time, Unix ms"`
}

// UserInfo returns the signed-in user's fields.
func (s *Service) UserInfo(ctx context.Context, m Meta) (UserInfo, error) {
	u, err := s.getUser(ctx, m.UserID)
	if err != nil {
		return UserInfo{}, err
	}
	return UserInfo{
		ID: u.ID, Email: u.Email, RealName: u.RealName, FirstName: u.FirstName, LastName: u.LastName,
		NickName: u.NickName, IsOpenMobileCheck: b2i(u.MobileCheck), GoogleStatus: b2i(u.GoogleOn),
		MobileNumber: u.Mobile, CountryCode: u.CountryCode, Country: u.Country, KYCStatus: u.KYCStatus,
		KYCLevel: u.KYCLevel, KYCRejectReason: u.KYCRejectReason, AccountType: u.AccountType, Ctime: u.CreatedMs,
	}, nil
}

// User returns a stored account (for other services of the same process).
func (s *Service) User(ctx context.Context, uid string) (User, error) { return s.getUser(ctx, uid) }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
