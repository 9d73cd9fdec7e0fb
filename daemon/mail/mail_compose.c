/*
 * mail_compose.c -- an outgoing mail as RFC 5322 bytes, made by GMime:
 * From, To, Subject (RFC 2047 when not ASCII), Date, Message-ID,
 * In-Reply-To, References, Auto-Submitted (RFC 3834), and one
 * text/plain; charset=utf-8 part whose transfer encoding GMime picks
 * (7bit, or quoted-printable for the accents of French mail).  The body
 * is wrapped for 80 columns (mail_wrap) on its UTF-8 text, before GMime
 * encodes it.  A mail with an HTML alternative (m->html) is instead
 * multipart/alternative: that same text/plain part first, then the
 * text/html part (not wrapped), which clients able to show it prefer
 * (RFC 2046 5.1.4: the last alternative is the richest).
 */
#include <stdlib.h>
#include <string.h>

#include <gmime/gmime.h>

#include "mail.h"

/* A text/SUBTYPE; charset=utf-8 part holding text, in the transfer
 * encoding GMime finds best for a 7-bit path. */
static GMimeTextPart *
text_part(const char *subtype, const char *text)
{
	GMimeTextPart *part;
	GMimeStream *content;
	GMimeDataWrapper *wrapper;

	part = g_mime_text_part_new_with_subtype(subtype);
	content = g_mime_stream_mem_new_with_buffer(text, strlen(text));
	wrapper = g_mime_data_wrapper_new_with_stream(content,
	    GMIME_CONTENT_ENCODING_DEFAULT);
	g_object_unref(content);
	g_mime_part_set_content(GMIME_PART(part), wrapper);
	g_object_unref(wrapper);
	g_mime_text_part_set_charset(part, "utf-8");
	g_mime_part_set_content_encoding(GMIME_PART(part),
	    g_mime_part_get_best_content_encoding(GMIME_PART(part),
	    GMIME_ENCODING_CONSTRAINT_7BIT));
	return part;
}

char *
mail_compose(const struct mail_settings *s, const struct mail_out *m,
    int crlf, size_t *len)
{
	GMimeMessage *msg;
	GMimeTextPart *part;
	GMimeMultipart *alt;
	GMimeFormatOptions *fmt;
	GMimeStream *stream;
	const char *body;
	GByteArray *bytes;
	GDateTime *now;
	char *out, *wrapped;

	msg = g_mime_message_new(TRUE);
	g_mime_message_add_mailbox(msg, GMIME_ADDRESS_TYPE_FROM, s->from_name,
	    s->from);
	g_mime_message_add_mailbox(msg, GMIME_ADDRESS_TYPE_TO, NULL, m->to);
	g_mime_message_set_subject(msg, m->subject, "utf-8");
	now = g_date_time_new_now_local();
	g_mime_message_set_date(msg, now);
	g_date_time_unref(now);
	g_mime_message_set_message_id(msg, m->message_id);
	if (m->in_reply_to[0] != '\0') {
		char *v = g_strdup_printf("<%s>", m->in_reply_to);
		g_mime_object_set_header(GMIME_OBJECT(msg), "In-Reply-To", v,
		    NULL);
		g_free(v);
	}
	if (m->references[0] != '\0')
		g_mime_object_set_header(GMIME_OBJECT(msg), "References",
		    m->references, NULL);
	g_mime_object_set_header(GMIME_OBJECT(msg), "Auto-Submitted",
	    m->autosub == MAIL_AUTO_REPLIED ? "auto-replied" :
	    "auto-generated", NULL);
	/* Replies to our own mail must not loop back as automated. */
	g_mime_object_set_header(GMIME_OBJECT(msg), "X-Auto-Response-Suppress",
	    "All", NULL);

	/* The body stays UTF-8 (GMime would pick Latin-1 for French); the
	 * transfer encoding is GMime's best for a 7-bit path. */
	body = m->body != NULL ? m->body : "";
	if ((wrapped = mail_wrap(body, MAIL_WRAP_WIDTH)) != NULL)
		body = wrapped;
	part = text_part("plain", body);
	free(wrapped);
	if (m->html != NULL) {
		alt = g_mime_multipart_new_with_subtype("alternative");
		g_mime_multipart_add(alt, GMIME_OBJECT(part));
		g_object_unref(part);
		part = text_part("html", m->html);
		g_mime_multipart_add(alt, GMIME_OBJECT(part));
		g_object_unref(part);
		g_mime_message_set_mime_part(msg, GMIME_OBJECT(alt));
		g_object_unref(alt);
	} else {
		g_mime_message_set_mime_part(msg, GMIME_OBJECT(part));
		g_object_unref(part);
	}

	fmt = g_mime_format_options_new();
	g_mime_format_options_set_newline_format(fmt, crlf ?
	    GMIME_NEWLINE_FORMAT_DOS : GMIME_NEWLINE_FORMAT_UNIX);
	bytes = g_byte_array_new();
	stream = g_mime_stream_mem_new_with_byte_array(bytes);
	g_mime_stream_mem_set_owner(GMIME_STREAM_MEM(stream), FALSE);
	g_mime_object_write_to_stream(GMIME_OBJECT(msg), fmt, stream);
	g_object_unref(stream);
	g_mime_format_options_free(fmt);
	g_object_unref(msg);

	out = malloc(bytes->len + 1);
	if (out != NULL) {
		memcpy(out, bytes->data, bytes->len);
		out[bytes->len] = '\0';
		*len = bytes->len;
	}
	g_byte_array_free(bytes, TRUE);
	return out;
}
