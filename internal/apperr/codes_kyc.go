package apperr

import "net/http"

// Identity verification (internal/kyc): levels, the verification
// provider's access tokens, its webhook and the local simulator. Codes
// 16000–16099 belong to this area. The webhook's codes carry the HTTP
// status the provider acts on: a 401 or 404 makes Sumsub send the webhook
// again later, a 2xx never.
var (
	// CodeKYCUnavailable: no verification provider is configured, or it
	// could not be reached; nothing was changed.
	CodeKYCUnavailable = register("16000", http.StatusServiceUnavailable,
		"Identity verification is not available right now, please try again later",
		"Иргэний баталгаажуулалт одоогоор боломжгүй байна, дараа дахин оролдоно уу")
	// CodeKYCLevelUnknown: no verification level of that name.
	CodeKYCLevelUnknown = register("16001", http.StatusOK,
		"Unknown verification level %s",
		"%s баталгаажуулалтын түвшин олдсонгүй")
	// CodeKYCFinalRejected: the review was rejected for good (Sumsub's FINAL
	// reject type): the documents cannot be sent again.
	CodeKYCFinalRejected = register("16002", http.StatusOK,
		"Your verification was rejected and cannot be retried; please contact support",
		"Таны баталгаажуулалтаас татгалзсан тул дахин илгээх боломжгүй; тусламжийн төвд хандана уу")
	// CodeKYCUnderReview: the documents are being reviewed; the level can
	// change only once the review has ended.
	CodeKYCUnderReview = register("16003", http.StatusOK,
		"Your documents are under review: wait for the result before changing the level",
		"Таны баримт бичгийг хянаж байна: түвшин солихын өмнө хариуг хүлээнэ үү")
	// CodeKYCApplicantUnknown: the applicant id is not the caller's (or
	// there is none): another user's applicant is never shown.
	CodeKYCApplicantUnknown = register("16004", http.StatusOK,
		"No such verification applicant",
		"Ийм баталгаажуулалтын өргөдөл олдсонгүй")
	// CodeKYCWebhookDigest: the webhook's X-Payload-Digest is missing or
	// does not match the body.
	CodeKYCWebhookDigest = register("16005", http.StatusUnauthorized,
		"Webhook signature missing or wrong",
		"Webhook-ийн гарын үсэг байхгүй эсвэл буруу байна")
	// CodeKYCWebhookAlg: X-Payload-Digest-Alg names no algorithm we accept.
	CodeKYCWebhookAlg = register("16006", http.StatusUnauthorized,
		"Unknown webhook digest algorithm %s",
		"Webhook-ийн %s тооцооны алгоритм танигдсангүй")
	// CodeKYCWebhookPayload: a signed webhook whose body is not the
	// provider's payload (no applicant, no type, a bad time).
	CodeKYCWebhookPayload = register("16007", http.StatusBadRequest,
		"Malformed webhook payload: %s",
		"Webhook-ийн агуулга буруу байна: %s")
	// CodeKYCWebhookApplicant: a signed webhook about a user who has no
	// applicant here (yet): the provider sends it again later.
	CodeKYCWebhookApplicant = register("16008", http.StatusNotFound,
		"The webhook names no applicant of this exchange",
		"Webhook-д заасан өргөдөл энэ биржид байхгүй байна")
	// CodeKYCLimitInvalid: an operator's limit that is not a positive amount.
	CodeKYCLimitInvalid = register("16009", http.StatusOK,
		"The daily withdrawal limit must be a positive amount of USDT, not %s",
		"Өдрийн зарлагын хязгаар эерэг USDT дүн байх ёстой, %s биш")
	// CodeKYCLevelExists: an operator adding a level whose name is taken.
	CodeKYCLevelExists = register("16010", http.StatusOK,
		"The verification level %s exists already",
		"%s баталгаажуулалтын түвшин аль хэдийн байна")
	// CodeKYCTokenInvalid: the simulator's page or form with an access
	// token that is unknown or expired.
	CodeKYCTokenInvalid = register("16011", http.StatusOK,
		"The verification link is invalid or expired: start again from the identity page",
		"Баталгаажуулах холбоос хүчингүй эсвэл хугацаа нь дууссан: иргэний баталгаажуулалтын хуудаснаас дахин эхэлнэ үү")
	// CodeKYCFormField: a field of the verification form is missing or
	// malformed (the simulator's form; an operator's decision).
	CodeKYCFormField = register("16012", http.StatusOK,
		"Please check the field %s",
		"%s талбарыг шалгана уу")
	// CodeKYCDocument: the document image's upload is not found or is not
	// the user's.
	CodeKYCDocument = register("16013", http.StatusOK,
		"The document image was not found: upload it again",
		"Баримт бичгийн зураг олдсонгүй: дахин оруулна уу")
	// CodeKYCNotSubmitted: a review asked for an applicant who has sent no
	// documents yet (the simulator's reviewer).
	CodeKYCNotSubmitted = register("16014", http.StatusOK,
		"The applicant has not sent documents yet",
		"Өргөдөл гаргагч баримт бичгээ илгээгээгүй байна")
	// CodeKYCDelivery: the simulator's webhook was not accepted by the
	// webhook route; its answer is named.
	CodeKYCDelivery = register("16015", http.StatusOK,
		"The simulated webhook was refused: %s",
		"Симуляцийн webhook-ийг хүлээж аваагүй: %s")
	// CodeKYCUserUnknown: an operator's decision about a user id with no account.
	CodeKYCUserUnknown = register("16016", http.StatusOK,
		"No user %s",
		"%s хэрэглэгч олдсонгүй")
)
