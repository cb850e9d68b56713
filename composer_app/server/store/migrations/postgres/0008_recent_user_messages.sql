-- A turn reads its thread's newest user messages (RECENT_MATERIAL_MESSAGES): an index of the user
-- messages alone, in thread order, hands them over newest first without stepping over the replies.
CREATE INDEX messages_user_by_thread ON messages (user_id, thread_id, created_sequence)
    WHERE role = 'user';
