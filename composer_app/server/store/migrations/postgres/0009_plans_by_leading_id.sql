-- Every index of the messages table leads with the id its reads look up (a message's, a turn's,
-- a thread's), the owning user second, so no index but the one meant for a read has a leading
-- column that read binds. A prepared statement's cached generic plan is chosen without the
-- parameters' values, and on a small table (a new database) every index that a read's leading
-- column matches costs the same: with user_id first everywhere, a lookup of one message by its id
-- could be planned on a thread or turn index and then step over all of the user's messages, for
-- as long as the connection lived.
ALTER TABLE messages DROP CONSTRAINT messages_pkey;
ALTER TABLE messages ADD PRIMARY KEY (message_id, user_id);
DROP INDEX messages_by_turn;
CREATE INDEX messages_by_turn ON messages (turn_id, user_id);
DROP INDEX messages_by_thread_page;
CREATE INDEX messages_by_thread_page ON messages (thread_id, user_id, created_sequence, role);
DROP INDEX messages_user_by_thread;
CREATE INDEX messages_user_by_thread ON messages (thread_id, user_id, created_sequence)
    WHERE role = 'user'
