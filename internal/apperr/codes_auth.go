package apperr

import "net/http"

// Accounts and sign-in (the profile service, internal/auth). Codes 12001–12099
// belong to this area. Wrong e-mail or SMS codes answer the spec's
// CodeVerifyCodeWrong (10009); rate limits by IP answer CodeTooManyRequests.
var (
	// CodeAccountExists: sign-up or binding with an e-mail or phone that already has an account.
	CodeAccountExists = register("12001", http.StatusOK,
		"This e-mail or phone number is already registered",
		"Энэ имэйл эсвэл утасны дугаар бүртгэлтэй байна")
	// CodeBadCredentials: sign-in with an unknown account or a wrong password (never says which).
	CodeBadCredentials = register("12002", http.StatusOK,
		"Wrong account or password",
		"Бүртгэл эсвэл нууц үг буруу байна")
	// CodeAccountLocked: too many failed sign-ins; data {retryAfter} in seconds.
	CodeAccountLocked = register("12003", http.StatusOK,
		"Too many failed attempts. Try again in %d seconds",
		"Хэт олон удаа буруу оролдлоо. %d секундын дараа дахин оролдоно уу")
	// CodeCodeResendWait: a new code for the same target and operation within its resend window (90 s; 60 s for operationType 11); data {retryAfter}.
	CodeCodeResendWait = register("12004", http.StatusOK,
		"A code was sent recently. You can request a new one in %d seconds",
		"Код саяхан илгээгдсэн. %d секундын дараа шинэ код авах боломжтой")
	// CodeCodeExpired: no code was requested, it expired or it was already used.
	CodeCodeExpired = register("12005", http.StatusOK,
		"The verification code has expired or was already used. Please request a new code",
		"Баталгаажуулах кодын хугацаа дууссан эсвэл ашиглагдсан байна. Шинэ код авна уу")
	// CodeCodeBurned: five wrong tries used the code up.
	CodeCodeBurned = register("12006", http.StatusOK,
		"Too many wrong codes. Please request a new code",
		"Хэт олон удаа буруу код орууллаа. Шинэ код авна уу")
	// CodeWeakPassword: the password rule (8–32 characters, letters and digits).
	CodeWeakPassword = register("12007", http.StatusOK,
		"The password must be 8–32 characters long and contain both letters and digits",
		"Нууц үг 8–32 тэмдэгттэй, үсэг болон тоо агуулсан байх ёстой")
	// CodeGoogleCodeWrong: a wrong Google authenticator code.
	CodeGoogleCodeWrong = register("12008", http.StatusOK,
		"The Google authenticator code is wrong",
		"Google баталгаажуулагчийн код буруу байна")
	// CodeGoogleCodeRequired: the account has the authenticator on and the call lacks googleCode.
	CodeGoogleCodeRequired = register("12009", http.StatusOK,
		"Please enter the Google authenticator code",
		"Google баталгаажуулагчийн кодоо оруулна уу")
	// CodeSMSCodeRequired: the account has the mobile check on and the call lacks the SMS code.
	CodeSMSCodeRequired = register("12010", http.StatusOK,
		"Please enter the SMS verification code",
		"Мессежээр ирсэн баталгаажуулах кодоо оруулна уу")
	// CodeChallengeExpired: the second sign-in step's token is unknown, expired or used.
	CodeChallengeExpired = register("12011", http.StatusOK,
		"The sign-in step has expired. Please sign in again",
		"Нэвтрэх алхмын хугацаа дууссан. Дахин нэвтэрнэ үү")
	// CodeResetTokenInvalid: the password-reset token is unknown, expired or used.
	CodeResetTokenInvalid = register("12012", http.StatusOK,
		"The password reset has expired. Please start again",
		"Нууц үг сэргээх хугацаа дууссан. Дахин эхлүүлнэ үү")
	// CodeGoogleAlreadyOn: turning on an authenticator that is already on.
	CodeGoogleAlreadyOn = register("12013", http.StatusOK,
		"The Google authenticator is already turned on",
		"Google баталгаажуулагч аль хэдийн идэвхтэй байна")
	// CodeGoogleNotSetUp: google_verify before toopen_google_authenticator, or closing an authenticator that is off.
	CodeGoogleNotSetUp = register("12014", http.StatusOK,
		"The Google authenticator is not set up",
		"Google баталгаажуулагч тохируулагдаагүй байна")
	// CodePhoneNotBound: the call needs a bound phone number.
	CodePhoneNotBound = register("12015", http.StatusOK,
		"Please bind a phone number first",
		"Эхлээд утасны дугаараа холбоно уу")
	// CodePhoneAlreadyBound: binding a phone when one is bound (change it instead).
	CodePhoneAlreadyBound = register("12016", http.StatusOK,
		"A phone number is already bound to this account",
		"Энэ бүртгэлд утасны дугаар аль хэдийн холбогдсон байна")
	// CodeAccountNotFound: password reset for an e-mail or phone without an account.
	CodeAccountNotFound = register("12017", http.StatusOK,
		"No account uses this e-mail or phone number",
		"Энэ имэйл эсвэл утасны дугаартай бүртгэл олдсонгүй")
	// CodeWrongPassword: the current password given to a settings change is wrong.
	CodeWrongPassword = register("12018", http.StatusOK,
		"The password is wrong",
		"Нууц үг буруу байна")
	// CodeSamePassword: the new password equals the current one.
	CodeSamePassword = register("12019", http.StatusOK,
		"The new password must differ from the current one",
		"Шинэ нууц үг одоогийнхоос өөр байх ёстой")
	// CodeEmailNotBound: the call needs a bound e-mail address.
	CodeEmailNotBound = register("12020", http.StatusOK,
		"Please bind an e-mail address first",
		"Эхлээд имэйл хаягаа холбоно уу")
	// CodeMobileCheckAlreadyOn: opening the mobile check when it is on.
	CodeMobileCheckAlreadyOn = register("12021", http.StatusOK,
		"The SMS check is already turned on",
		"Мессежээр баталгаажуулах аль хэдийн идэвхтэй байна")
	// CodeMobileCheckAlreadyOff: closing the mobile check when it is off.
	CodeMobileCheckAlreadyOff = register("12022", http.StatusOK,
		"The SMS check is already turned off",
		"Мессежээр баталгаажуулах аль хэдийн идэвхгүй байна")
	// CodeOperationNotAllowed: a code of this operationType cannot be requested this way.
	CodeOperationNotAllowed = register("12023", http.StatusOK,
		"This kind of verification code cannot be requested here",
		"Энэ төрлийн баталгаажуулах кодыг энд авах боломжгүй")
	// CodeSendFailed: the SMS or e-mail could not be sent.
	CodeSendFailed = register("12024", http.StatusOK,
		"The code could not be sent. Please try again later",
		"Код илгээж чадсангүй. Түр хүлээгээд дахин оролдоно уу")
	// CodeSameTarget: changing the e-mail or phone to the one already bound.
	CodeSameTarget = register("12025", http.StatusOK,
		"This is already your e-mail or phone number",
		"Энэ таны одоогийн имэйл эсвэл утасны дугаар байна")
	// CodeGoogleCodeUsed: a TOTP code already used for this account (replay).
	CodeGoogleCodeUsed = register("12026", http.StatusOK,
		"This Google authenticator code was already used. Please wait for the next code",
		"Энэ Google баталгаажуулагчийн код ашиглагдсан байна. Дараагийн кодыг хүлээнэ үү")
	// CodeNicknameInvalid: nickname empty, too long or with control characters.
	CodeNicknameInvalid = register("12027", http.StatusOK,
		"The nickname must be 1–32 characters without special control characters",
		"Хоч нэр 1–32 тэмдэгттэй, тусгай тэмдэгтгүй байх ёстой")
	// CodeRecoveryUnavailable: a lost authenticator can be reset here only
	// by an account with both an e-mail address and a phone number.
	CodeRecoveryUnavailable = register("12028", http.StatusOK,
		"Resetting the authenticator needs both your e-mail and your phone number. Please contact support",
		"Баталгаажуулагчийг сэргээхэд имэйл болон утасны дугаар хоёулаа шаардлагатай. Тусламжийн төвд хандана уу")
)
