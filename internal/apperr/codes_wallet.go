package apperr

import "net/http"

// Wallet accounts side (internal/wallet): balances, transfers, address book,
// bank accounts, trade password. Codes 13500–13999 belong to this area.
// Wrong SMS or e-mail codes answer the spec's CodeVerifyCodeWrong (10009),
// wrong or missing Google codes the profile service's 12008 / 12009, a
// missing SMS code 12010.
var (
	// CodeWalletInsufficient: the source account holds less than the transfer amount.
	CodeWalletInsufficient = register("13500", http.StatusOK,
		"Insufficient available balance",
		"Боломжит үлдэгдэл хүрэлцэхгүй байна")
	// CodeWalletAmountFormat: the amount is not digits with at most one decimal point.
	CodeWalletAmountFormat = register("13501", http.StatusOK,
		"Please enter a valid amount: digits with at most one decimal point",
		"Дүнг зөв оруулна уу: зөвхөн цифр, дээд тал нь нэг аравтын цэг")
	// CodeWalletAmountPrecision: more decimals than the coin allows.
	CodeWalletAmountPrecision = register("13502", http.StatusOK,
		"The amount may have at most %d decimal places",
		"Дүн дээд тал нь %d оронгийн бутархайтай байна")
	// CodeWalletAmountZero: the amount is not above 0 (after truncation for futures).
	CodeWalletAmountZero = register("13503", http.StatusOK,
		"The amount must be greater than 0",
		"Дүн 0-ээс их байх ёстой")
	// CodeWalletCoinUnknown: no such coin in the catalogue.
	CodeWalletCoinUnknown = register("13504", http.StatusOK,
		"Unknown coin %s",
		"%s зоос олдсонгүй")
	// CodeWalletTransferAccount: the accounts of a transfer are unknown or the same.
	CodeWalletTransferAccount = register("13505", http.StatusOK,
		"Transfers are possible only between your spot account and another account",
		"Шилжүүлэг зөвхөн таны спот данс болон өөр дансны хооронд хийгдэнэ")
	// CodeWalletCoinNotTransferable: the target account does not hold this coin.
	CodeWalletCoinNotTransferable = register("13506", http.StatusOK,
		"%s cannot be transferred to or from this account",
		"%s-г энэ данс руу эсвэл данснаас шилжүүлэх боломжгүй")
	// CodeWalletPairUnknown: an isolated margin pair that does not exist.
	CodeWalletPairUnknown = register("13507", http.StatusOK,
		"Unknown trading pair",
		"Арилжааны хос олдсонгүй")
	// CodeWalletRequestReused: a client request id reused for a different transfer.
	CodeWalletRequestReused = register("13508", http.StatusOK,
		"This request id was already used for a different transfer",
		"Энэ хүсэлтийн дугаар өөр шилжүүлэгт ашиглагдсан байна")
	// CodeWalletAmountTooLong: an amount of more than 40 characters.
	CodeWalletAmountTooLong = register("13509", http.StatusOK,
		"The amount is too long",
		"Дүн хэт урт байна")

	// CodeWalletAddressInvalid: the withdrawal address is not valid on the chain.
	CodeWalletAddressInvalid = register("13510", http.StatusOK,
		"The address is not a valid %s address",
		"Энэ хаяг %s сүлжээний зөв хаяг биш байна")
	// CodeWalletMemoInvalid: the memo (tag) is not valid on the chain.
	CodeWalletMemoInvalid = register("13511", http.StatusOK,
		"The memo (tag) is not valid for this chain",
		"Мемо (таг) энэ сүлжээнд тохирохгүй байна")
	// CodeWalletAddressExists: the address is already in the address book.
	CodeWalletAddressExists = register("13512", http.StatusOK,
		"This address is already in your address book",
		"Энэ хаяг таны хаягийн жагсаалтад бүртгэлтэй байна")
	// CodeWalletAddressNotFound: no such address in the user's address book.
	CodeWalletAddressNotFound = register("13513", http.StatusOK,
		"Address not found",
		"Хаяг олдсонгүй")
	// CodeWalletLabelInvalid: the label is empty, too long or has control characters.
	CodeWalletLabelInvalid = register("13514", http.StatusOK,
		"The label must be 1–30 characters",
		"Тэмдэглэгээ 1–30 тэмдэгттэй байх ёстой")
	// CodeWalletChainInvalid: the coin has no such chain, or the chain takes no saved address (Bank).
	CodeWalletChainInvalid = register("13515", http.StatusOK,
		"This coin cannot use the chain %s here",
		"Энэ зоос %s сүлжээг энд ашиглах боломжгүй")
	// CodeWalletAddressBookFull: the address book holds the maximum number of entries.
	CodeWalletAddressBookFull = register("13516", http.StatusOK,
		"Your address book is full (at most %d addresses)",
		"Хаягийн жагсаалт дүүрсэн байна (дээд тал нь %d хаяг)")
	// CodeWalletVerifyAddressSame: setting the verify-address switch to its current state.
	CodeWalletVerifyAddressSame = register("13517", http.StatusOK,
		"The address verification switch is already in this state",
		"Хаяг баталгаажуулах тохиргоо аль хэдийн энэ төлөвт байна")

	// CodeWalletIBANRequired: no bank account number was given.
	CodeWalletIBANRequired = register("13520", http.StatusOK,
		"Please enter the bank account (IBAN).",
		"Банкны дансны дугаар оруулна уу.")
	// CodeWalletIBANDigits: spec §8 'Буруу IBAN формат. 18 орон байх ёстой.'
	CodeWalletIBANDigits = register("13521", http.StatusOK,
		"Invalid IBAN format. It must have 18 digits.",
		"Буруу IBAN формат. 18 орон байх ёстой.")
	// CodeWalletIBANFormat: spec §8 'Буруу IBAN формат. MN-ээр эхэлж, 20 тэмдэгттэй байх ёстой.'
	CodeWalletIBANFormat = register("13522", http.StatusOK,
		"Invalid IBAN format. It must start with MN and be 20 characters long.",
		"Буруу IBAN формат. MN-ээр эхэлж, 20 тэмдэгттэй байх ёстой.")
	// CodeWalletBankUnknown: payment is not a bank of the payment list.
	CodeWalletBankUnknown = register("13523", http.StatusOK,
		"Please choose a bank from the list",
		"Жагсаалтаас банкаа сонгоно уу")
	// CodeWalletBankAccountExists: the IBAN is already saved.
	CodeWalletBankAccountExists = register("13524", http.StatusOK,
		"This bank account is already added",
		"Энэ дансыг аль хэдийн нэмсэн байна")
	// CodeWalletBankAccountNotFound: no such bank account of the user.
	CodeWalletBankAccountNotFound = register("13525", http.StatusOK,
		"Bank account not found",
		"Банкны данс олдсонгүй")
	// CodeWalletBankAccountTaken: another user has saved this IBAN.
	CodeWalletBankAccountTaken = register("13527", http.StatusOK,
		"This bank account is registered to another user. Please add an account in your own name",
		"Энэ данс өөр хэрэглэгчид бүртгэлтэй байна. Өөрийн нэр дээрх дансаа нэмнэ үү")
	// CodeWalletBankAccountsFull: the maximum number of bank accounts is saved.
	CodeWalletBankAccountsFull = register("13526", http.StatusOK,
		"You can add at most %d bank accounts",
		"Дээд тал нь %d банкны данс нэмэх боломжтой")

	// CodeWalletTradePasswordRule: the trade password breaks the rule.
	CodeWalletTradePasswordRule = register("13530", http.StatusOK,
		"The trade password must be 8–32 characters long and contain both letters and digits",
		"Гүйлгээний нууц үг 8–32 тэмдэгттэй, үсэг болон тоо агуулсан байх ёстой")
	// CodeWalletTradePasswordIsLogin: the trade password equals the login password.
	CodeWalletTradePasswordIsLogin = register("13531", http.StatusOK,
		"The trade password must differ from your login password",
		"Гүйлгээний нууц үг нэвтрэх нууц үгээс өөр байх ёстой")
	// CodeWalletPasswordMismatch: spec §8 'Password entires do not match. Try again'.
	CodeWalletPasswordMismatch = register("13532", http.StatusOK,
		"Password entires do not match. Try again",
		"Нууц үг таарахгүй байна. Дахин оролдоно уу")
	// CodeWalletNoVerifyTarget: the account has neither phone nor e-mail to send a code to.
	CodeWalletNoVerifyTarget = register("13533", http.StatusOK,
		"Please bind a phone number or an e-mail address first",
		"Эхлээд утасны дугаар эсвэл имэйл хаягаа холбоно уу")
	// CodeWalletEmailCodeRequired: the e-mail code is required (no phone is bound).
	CodeWalletEmailCodeRequired = register("13534", http.StatusOK,
		"Please enter the e-mail verification code",
		"Имэйлээр ирсэн баталгаажуулах кодоо оруулна уу")

	// CodeWalletHistoryRange: a history time range outside the last 180 days or reversed.
	CodeWalletHistoryRange = register("13540", http.StatusOK,
		"History is available for the last 180 days; the start must be before the end",
		"Түүхийг сүүлийн 180 хоногоор харах боломжтой; эхлэх огноо дуусахаас өмнө байх ёстой")
	// CodeWalletNoPrice: a coin has no price to value it with.
	CodeWalletNoPrice = register("13541", http.StatusOK,
		"No price is available for %s yet",
		"%s-ийн ханш одоогоор алга")
)
