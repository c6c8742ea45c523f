package apperr

import "net/http"

// Corporate verification (internal/corporate): the five-step application
// that makes a user an enterprise account, its review, and the change back
// to a regular account. Codes 16300–16399 belong to this area. Field
// problems name the field as the API spells it (entityName,
// people[2].dateOfBirth), so the web app can point at it.
var (
	// CodeCorpStepRoute: a step saved through a call that does not save it,
	// or save_base_info's step and step object disagree.
	CodeCorpStepRoute = register("16300", http.StatusOK,
		"Step %d is saved with %s",
		"%d-р алхмыг %s-ээр хадгална")
	// CodeCorpRequired: a field that must be given is blank.
	CodeCorpRequired = register("16301", http.StatusOK,
		"%s is required",
		"%s-г заавал бөглөнө")
	// CodeCorpTooLong: a text field is longer than its bound.
	CodeCorpTooLong = register("16302", http.StatusOK,
		"%s: at most %d characters",
		"%s: дээд тал нь %d тэмдэгт")
	// CodeCorpDate: a date is malformed, impossible or in the future.
	CodeCorpDate = register("16303", http.StatusOK,
		"%s must be a date as YYYY-MM-DD, not in the future",
		"%s нь YYYY-MM-DD хэлбэрийн, ирээдүйд биш огноо байх ёстой")
	// CodeCorpCountry: not an ISO 3166-1 alpha-2 country code.
	CodeCorpCountry = register("16304", http.StatusOK,
		"%s must be a two-letter ISO 3166 country code, such as MN",
		"%s нь ISO 3166-ийн хоёр үсэгтэй улсын код байх ёстой, жишээ нь MN")
	// CodeCorpPhone: not a phone number.
	CodeCorpPhone = register("16305", http.StatusOK,
		"%s must be a phone number: 6 to 20 digits, with an optional leading + and spaces or dashes between them",
		"%s нь утасны дугаар байх ёстой: 6-20 цифр, эхэндээ + тэмдэгттэй, хооронд нь зай эсвэл зураас байж болно")
	// CodeCorpValue: a value outside a field's list of accepted values.
	CodeCorpValue = register("16306", http.StatusOK,
		"%s: %s is not an accepted value",
		"%s: %s утгыг хүлээн авахгүй")
	// CodeCorpText: a text holds control or format characters.
	CodeCorpText = register("16307", http.StatusOK,
		"%s holds characters that are not allowed",
		"%s зөвшөөрөгдөөгүй тэмдэгт агуулж байна")
	// CodeCorpEmail: not an e-mail address.
	CodeCorpEmail = register("16308", http.StatusOK,
		"%s must be an e-mail address",
		"%s нь имэйл хаяг байх ёстой")
	// CodeCorpAge: a representative or owner younger than 18.
	CodeCorpAge = register("16309", http.StatusOK,
		"%s: every representative and owner must be at least 18 years old",
		"%s: төлөөлөгч болон эзэмшигч бүр 18-аас доошгүй настай байх ёстой")
	// CodeCorpPercent: an ownership share that is not a percentage above
	// 0 and at most 100 with at most two decimals.
	CodeCorpPercent = register("16310", http.StatusOK,
		"%s: an owner's share is a percentage above 0 and at most 100, with at most 2 decimals",
		"%s: эзэмшигчийн хувь 0-ээс их, 100-аас ихгүй, 2 хүртэлх оронтой бутархай байна")
	// CodeCorpOwnershipOver: the owners' shares add up to more than 100%.
	CodeCorpOwnershipOver = register("16311", http.StatusOK,
		"The owners' shares add up to %s%%, more than 100%%",
		"Эзэмшигчдийн хувь нийлээд %s%% болж, 100%%-иас хэтэрч байна")
	// CodeCorpRoles: a person without a role or with an unknown one.
	CodeCorpRoles = register("16312", http.StatusOK,
		"%s: a person's roles are director, signatory or owner, at least one of them",
		"%s: хүний үүрэг нь director, signatory эсвэл owner, дор хаяж нэг нь байна")
	// CodeCorpShareNotOwner: an ownership share given for a person who is
	// not an owner.
	CodeCorpShareNotOwner = register("16313", http.StatusOK,
		"%s: only an owner has an ownership share",
		"%s: зөвхөн эзэмшигч эзэмшлийн хувьтай байна")
	// CodeCorpPerson: a person id that step 3 does not list.
	CodeCorpPerson = register("16314", http.StatusOK,
		"Person %s is not listed in step 3",
		"%s хүн 3-р алхамд бүртгэгдээгүй байна")
	// CodeCorpTooManyPeople: more people than step 3 takes.
	CodeCorpTooManyPeople = register("16315", http.StatusOK,
		"At most %d people can be listed",
		"Дээд тал нь %d хүн бүртгэнэ")
	// CodeCorpTooManyFiles: more files than step 4 takes.
	CodeCorpTooManyFiles = register("16316", http.StatusOK,
		"At most %d files can be attached, %d for one document",
		"Дээд тал нь %d файл хавсаргана, нэг баримтад %d")
	// CodeCorpDuplicateFile: one upload attached twice.
	CodeCorpDuplicateFile = register("16317", http.StatusOK,
		"Upload %s is attached twice",
		"%s файлыг хоёр удаа хавсаргасан байна")
	// CodeCorpUploadsUnavailable: this deployment cannot check uploads, so
	// no document can be attached yet.
	CodeCorpUploadsUnavailable = register("16318", http.StatusServiceUnavailable,
		"Document uploads are not available at the moment; try again later",
		"Баримт хавсаргах боломжгүй байна; дараа дахин оролдоно уу")
	// CodeCorpUploadNotFound: an upload id that is not one of the caller's
	// uploads (another user's, or none at all).
	CodeCorpUploadNotFound = register("16319", http.StatusOK,
		"Upload %s is not one of your files",
		"%s файл таны оруулсан файл биш байна")
	// CodeCorpUnderReview: a change while the application is under review.
	CodeCorpUnderReview = register("16320", http.StatusOK,
		"The application is under review and cannot be changed",
		"Өргөдлийг хянаж байгаа тул өөрчлөх боломжгүй")
	// CodeCorpApproved: a change of an approved application.
	CodeCorpApproved = register("16321", http.StatusOK,
		"The application is approved; to change it, change back to a regular account first",
		"Өргөдөл батлагдсан; өөрчлөхийн тулд эхлээд энгийн данс руу буцна уу")
	// CodeCorpIncomplete: a submit with steps missing; data lists them.
	CodeCorpIncomplete = register("16322", http.StatusOK,
		"Complete step %s before submitting",
		"Илгээхээс өмнө %s-р алхмыг гүйцээнэ үү")
	// CodeCorpNoApplication: no application of this user.
	CodeCorpNoApplication = register("16323", http.StatusOK,
		"No corporate verification application yet",
		"Байгууллагын баталгаажуулалтын өргөдөл алга")
	// CodeCorpNotPending: a review of an application that is not waiting
	// for one.
	CodeCorpNotPending = register("16324", http.StatusOK,
		"The application is %s, not waiting for review",
		"Өргөдөл %s төлөвт байгаа тул хянах боломжгүй")
	// CodeCorpNotEnterprise: a change back to regular of an account that
	// is not an enterprise account.
	CodeCorpNotEnterprise = register("16325", http.StatusOK,
		"This account is not an enterprise account",
		"Энэ данс байгууллагын данс биш байна")
	// CodeCorpReason: a rejection without a reason, or with too many or
	// too long ones.
	CodeCorpReason = register("16326", http.StatusOK,
		"A rejection needs 1 to %d reasons of at most %d characters each",
		"Татгалзахад 1-ээс %d шалтгаан, тус бүр дээд тал нь %d тэмдэгт байна")
	// CodeCorpChanged: the application kept changing under a write.
	CodeCorpChanged = register("16327", http.StatusOK,
		"The application was changed meanwhile; reload it and try again",
		"Өргөдөл энэ хооронд өөрчлөгдсөн; дахин ачаалаад оролдоно уу")
	// CodeCorpChars: a registration number or zip with other characters
	// than letters, digits, spaces and - / .
	CodeCorpChars = register("16328", http.StatusOK,
		"%s may hold only letters, digits, spaces and - / .",
		"%s зөвхөн үсэг, цифр, зай болон - / . тэмдэгт агуулна")
)
