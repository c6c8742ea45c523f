package apperr

import "net/http"

// Money in and out (deposits, withdrawals, the chain and bank simulators:
// internal/deposit, internal/withdraw, internal/chainsim, internal/banksim).
// Codes 13000–13499 belong to this area. Wrong e-mail or SMS codes answer the
// spec's CodeVerifyCodeWrong (10009); wrong Google codes the auth area's
// CodeGoogleCodeWrong. Amounts below the minimum or above the maximum carry
// the spec's errorMsg keys the.amount.is.not.enough / the.amount.is.exceeded.
var (
	// CodeCoinUnknown: the coin (symbol) is not in the catalogue.
	CodeCoinUnknown = register("13001", http.StatusOK,
		"This coin is not supported",
		"Энэ койныг дэмжихгүй байна")
	// CodeChainUnknown: the coin has no such chain.
	CodeChainUnknown = register("13002", http.StatusOK,
		"This network is not available for the coin",
		"Энэ сүлжээ уг койнд боломжгүй байна")
	// CodeDepositClosed: depositOpen is false for the coin or chain.
	CodeDepositClosed = register("13003", http.StatusOK,
		"Deposits of this coin on this network are suspended",
		"Энэ сүлжээгээр энэ койн орлого хийх түр хаалттай байна")
	// CodeWithdrawClosed: withdrawOpen is false for the coin or chain.
	CodeWithdrawClosed = register("13004", http.StatusOK,
		"Withdrawals of this coin on this network are suspended",
		"Энэ сүлжээгээр энэ койн зарлага хийх түр хаалттай байна")
	// CodeAddressInvalid: the withdrawal address fails the chain's format check.
	CodeAddressInvalid = register("13005", http.StatusOK,
		"The address is not a valid %s address",
		"Хаяг %s сүлжээний зөв хаяг биш байна")
	// CodeMemoInvalid: the memo (tag) is not valid on the chain.
	CodeMemoInvalid = register("13006", http.StatusOK,
		"The memo (tag) is not valid for this network",
		"Мемо (таг) энэ сүлжээнд буруу байна")
	// CodeAmountInvalid: the amount is not digits with an optional decimal point, is zero or has too many decimals.
	CodeAmountInvalid = register("13007", http.StatusOK,
		"Invalid amount: use digits with at most %d decimals, above 0",
		"Дүн буруу: 0-ээс их, хамгийн ихдээ %d орон бутархайтай тоо оруулна уу")
	// CodeAmountBelowMin: below withdraw_min (errorMsg the.amount.is.not.enough).
	CodeAmountBelowMin = register("13008", http.StatusOK,
		"The amount is below the minimum withdrawal %s",
		"Зарлагын доод хязгаараас бага байна")
	// CodeAmountAboveMax: above withdraw_max (errorMsg the.amount.is.exceeded).
	CodeAmountAboveMax = register("13009", http.StatusOK,
		"The amount is above the single withdrawal maximum %s",
		"Зарлагын нэг удаагийн дээд хязгаараас их байна")
	// CodeInsufficientFunds: the spot balance is smaller than the amount.
	CodeInsufficientFunds = register("13010", http.StatusOK,
		"Insufficient balance",
		"Үлдэгдэл хүрэлцэхгүй байна")
	// CodeDailyLimit: the rolling 24-hour limit in USDT would be exceeded; data {left, limit}.
	CodeDailyLimit = register("13011", http.StatusOK,
		"The 24-hour withdrawal limit would be exceeded: %s USDT left of %s USDT",
		"24 цагийн зарлагын хязгаар хэтэрнэ: %[2]s USDT-ээс %[1]s USDT үлдсэн")
	// CodeWithdrawLocked: withdrawals are banned for 24 h after a trade-password change; data {until}.
	CodeWithdrawLocked = register("13012", http.StatusOK,
		"Withdrawals are disabled for 24 hours after a trade password change (until %s UTC)",
		"Арилжааны нууц үг солисноос хойш 24 цаг зарлага хийх боломжгүй (%s UTC хүртэл)")
	// CodeAddressNotSaved: the verify-address switch is on and the address is not in the address book.
	CodeAddressNotSaved = register("13013", http.StatusOK,
		"Address verification is on: withdraw only to an address saved in your address book",
		"Хаяг баталгаажуулалт идэвхтэй: зөвхөн хаягийн жагсаалтад хадгалсан хаяг руу зарлага хийнэ")
	// CodeFeeMismatch: the fee sent differs from the current fee (the fee changed; reload).
	CodeFeeMismatch = register("13014", http.StatusOK,
		"The withdrawal fee is now %s; please check and confirm again",
		"Зарлагын шимтгэл одоо %s байна; шалгаад дахин баталгаажуулна уу")
	// CodeEmailCodeRequired: the account has an e-mail and the call lacks the e-mail code.
	CodeEmailCodeRequired = register("13015", http.StatusOK,
		"Please enter the e-mail verification code",
		"Имэйлээр ирсэн баталгаажуулах кодоо оруулна уу")
	// CodeBankAccountUnknown: the bank account is not one of the user's saved accounts.
	CodeBankAccountUnknown = register("13016", http.StatusOK,
		"Choose one of your saved bank accounts",
		"Хадгалсан банкны данснаасаа сонгоно уу")
	// CodeUserMismatch: the bank withdrawal's userId is not the signed-in user.
	CodeUserMismatch = register("13017", http.StatusOK,
		"The user id does not match the signed-in account",
		"Хэрэглэгчийн дугаар нэвтэрсэн бүртгэлтэй таарахгүй байна")
	// CodeWithdrawalUnknown: no such withdrawal (or not the caller's).
	CodeWithdrawalUnknown = register("13018", http.StatusOK,
		"No such withdrawal",
		"Ийм зарлага олдсонгүй")
	// CodeDepositAddressUnavailable: the deposit address could not be made (configuration).
	CodeDepositAddressUnavailable = register("13019", http.StatusOK,
		"The deposit address is temporarily unavailable",
		"Орлогын хаяг түр ашиглах боломжгүй байна")
	// CodeReviewUnknown: the held bank deposit does not exist or was already assigned (operator tool).
	CodeReviewUnknown = register("13020", http.StatusOK,
		"No such bank deposit awaiting review",
		"Хянагдахыг хүлээж буй ийм банкны орлого алга")
	// CodeBankOnly: the fiat is withdrawn only to a bank account (and bank withdrawals only in the fiat).
	CodeBankOnly = register("13021", http.StatusOK,
		"%s is withdrawn to a bank account",
		"%s-г банкны данс руу татна")
	// CodeBankRequestDone: the bank confirmation was already answered.
	CodeBankRequestDone = register("13022", http.StatusOK,
		"This bank request was already answered",
		"Энэ банкны хүсэлтэд аль хэдийн хариулсан байна")
	// CodeSimInput: simulator input names an unknown chain, coin or address (dev tools).
	CodeSimInput = register("13023", http.StatusOK,
		"Simulator input rejected: %s",
		"Симуляторын оролт буруу: %s")
	// CodeWithdrawRequestReused: a withdrawal requestId reused for a different withdrawal.
	CodeWithdrawRequestReused = register("13024", http.StatusOK,
		"This request id was already used for a different withdrawal",
		"Энэ хүсэлтийн дугаар өөр татан авалтад ашиглагдсан байна")
	// CodeWithdrawOwnAddress: a withdrawal to the user's own deposit address.
	CodeWithdrawOwnAddress = register("13025", http.StatusOK,
		"This is your own deposit address. Please withdraw to an address outside your Tenger account",
		"Энэ бол таны өөрийн орлогын хаяг. Tenger дансаас гадуурх хаяг руу татна уу")
)
