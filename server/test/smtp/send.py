"""An independent SMTP client for sendbox's tests: Python's smtplib and email packages.

Reads one JSON job on stdin and prints one JSON result on stdout:
  {"port", "host"?, "user"?, "password"?, "starttls"?, "implicit_tls"?, "cafile"?,
   "from", "to": [...], "envelope_to"?: [...], "subject", "text", "html"?, "headers"?: {...}}
The result holds the EHLO features (before and after STARTTLS), the AUTH reply, the
DATA reply, and whether the session was encrypted, so the test checks what the server said.
"""
import json
import smtplib
import ssl
import sys
from email.message import EmailMessage
from email.utils import make_msgid


def main():
    job = json.load(sys.stdin)
    msg = EmailMessage()
    msg["From"] = job["from"]
    msg["To"] = ", ".join(job["to"])
    msg["Subject"] = job["subject"]
    msg["Message-ID"] = job.get("message_id") or make_msgid(domain="python.test")
    for name, value in job.get("headers", {}).items():
        msg[name] = value
    msg.set_content(job["text"])
    if job.get("html"):
        msg.add_alternative(job["html"], subtype="html")

    result = {"message_id": msg["Message-ID"]}
    if job.get("implicit_tls"):
        # SMTPS (RFC 8314): TLS from the first byte, verified against cafile when given.
        context = ssl.create_default_context(cafile=job.get("cafile"))
        if not job.get("cafile"):
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
        client = smtplib.SMTP_SSL(job.get("host", "127.0.0.1"), job["port"], timeout=20, context=context)
    else:
        client = smtplib.SMTP(job.get("host", "127.0.0.1"), job["port"], timeout=20)
    with client as smtp:
        smtp.ehlo("python.test")
        if job.get("implicit_tls"):
            result["cipher"] = smtp.sock.cipher()[0]
        result["features"] = sorted(smtp.esmtp_features.keys())
        if job.get("starttls"):
            context = ssl.create_default_context(cafile=job.get("cafile"))
            if not job.get("cafile"):
                context.check_hostname = False
                context.verify_mode = ssl.CERT_NONE
            code, _ = smtp.starttls(context=context)
            result["starttls"] = code
            smtp.ehlo("python.test")
            result["features_after_tls"] = sorted(smtp.esmtp_features.keys())
            result["cipher"] = smtp.sock.cipher()[0]
        if job.get("password") is not None:
            try:
                if job.get("auth_method") == "CRAM-MD5":
                    # Only CRAM-MD5, without login()'s fallback to PLAIN and LOGIN.
                    smtp.user, smtp.password = job.get("user", "apikey"), job["password"]
                    code, text = smtp.auth("CRAM-MD5", smtp.auth_cram_md5)
                else:
                    code, text = smtp.login(job.get("user", "apikey"), job["password"])
                result["auth"] = [code, text.decode()]
            except smtplib.SMTPAuthenticationError as error:
                result["auth"] = [error.smtp_code, error.smtp_error.decode()]
                print(json.dumps(result))
                return
        recipients = job.get("envelope_to") or job["to"]
        code, text = smtp.mail(job["from"])
        result["mail"] = [code, text.decode()]
        if code != 250:
            print(json.dumps(result))
            return
        for rcpt in recipients:
            smtp.rcpt(rcpt)
        code, text = smtp.data(msg.as_bytes(policy=msg.policy.clone(linesep="\r\n")))
        result["data"] = [code, text.decode()]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
