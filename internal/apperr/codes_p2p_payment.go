package apperr

import "net/http"

// P2P payment methods (internal/p2p/paymethod): the accounts a P2P buyer
// pays a seller's fiat into. Codes 17150–17199 belong to this area.
var (
	// CodePayMethodNotFound: no such payment method of the caller (another
	// user's method answers the same, and so does a closed one where the
	// ads ask for open methods).
	CodePayMethodNotFound = register("17150", http.StatusOK,
		"Payment method not found",
		"Төлбөрийн арга олдсонгүй")
	// CodePayKindUnknown: a kind outside the offered list (cash among them).
	CodePayKindUnknown = register("17151", http.StatusOK,
		"Unknown payment method kind %s",
		"%s гэсэн төлбөрийн аргын төрөл байхгүй")
	// CodePayPhone: a wallet-style kind whose account is not a phone number
	// of 8 digits; the argument is the kind's name.
	CodePayPhone = register("17152", http.StatusOK,
		"The %s account must be a phone number of 8 digits",
		"%s-ийн данс нь 8 оронтой утасны дугаар байх ёстой")
	// CodePayIBANRequired: a bank transfer without an account (the texts of
	// coins.ErrIBANRequired; the package's tests keep them equal).
	CodePayIBANRequired = register("17153", http.StatusOK,
		"Please enter the bank account (IBAN).",
		"Банкны дансны дугаар оруулна уу.")
	// CodePayIBANDigits: typed digits that are not exactly 18 (the texts of
	// coins.ErrIBANDigits, spec §8).
	CodePayIBANDigits = register("17154", http.StatusOK,
		"Invalid IBAN format. It must have 18 digits.",
		"Буруу IBAN формат. 18 орон байх ёстой.")
	// CodePayIBANFormat: a value that is not MN and 18 digits (the texts of
	// coins.ErrIBANFormat, spec §8).
	CodePayIBANFormat = register("17155", http.StatusOK,
		"Invalid IBAN format. It must start with MN and be 20 characters long.",
		"Буруу IBAN формат. MN-ээр эхэлж, 20 тэмдэгттэй байх ёстой.")
	// CodePayBankUnknown: a bank transfer naming no bank of the list.
	CodePayBankUnknown = register("17156", http.StatusOK,
		"Please choose a bank from the list",
		"Жагсаалтаас банкаа сонгоно уу")
	// CodePayHolderName: the account holder's name is empty, too long or
	// holds control characters.
	CodePayHolderName = register("17157", http.StatusOK,
		"The account holder's name must be 1 to %d characters",
		"Данс эзэмшигчийн нэр 1-ээс %d тэмдэгт байх ёстой")
	// CodePayHolderMismatch: a holder's name other than the caller's
	// verified real name (P2P accounts must be in the trader's own name).
	CodePayHolderMismatch = register("17158", http.StatusOK,
		"The account must be in your own name, as verified",
		"Данс таны баталгаажсан нэр дээр байх ёстой")
	// CodePayHolderUnverified: the caller has no verified real name yet.
	CodePayHolderUnverified = register("17159", http.StatusOK,
		"Please verify your identity before adding a payment method",
		"Төлбөрийн арга нэмэхийн өмнө хувийн мэдээллээ баталгаажуулна уу")
	// CodePayTooMany: the caller already has the most payment methods.
	CodePayTooMany = register("17160", http.StatusOK,
		"You can add at most %d payment methods",
		"Дээд тал нь %d төлбөрийн арга нэмэх боломжтой")
	// CodePayDuplicate: the same kind and account as another of the
	// caller's payment methods.
	CodePayDuplicate = register("17161", http.StatusOK,
		"This account is already one of your payment methods",
		"Энэ данс таны төлбөрийн аргуудад аль хэдийн бүртгэгдсэн байна")
)
