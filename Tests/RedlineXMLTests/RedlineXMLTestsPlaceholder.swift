// Tests of RedlineXML live beside this file.
